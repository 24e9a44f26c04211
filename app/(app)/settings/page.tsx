import { DownloadIcon, MailIcon, ThumbsUpIcon } from "lucide-react";
import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import type { ReactNode } from "react";
import { GoogleButton } from "@/app/(auth)/_components/google-button";
import { PageHeader } from "@/components/page-header";
import { Badge } from "@/components/ui/badge";
import { buttonVariants } from "@/components/ui/button";
import { dictationConfig } from "@/core/config";
import { getDb } from "@/db/client";
import { listAccessTokens } from "@/db/queries/access-tokens";
import { getAccount } from "@/db/queries/users";
import { gmailConnection, gmailConnectionView } from "@/lib/agent/mailbox";
import { getAiRegistry } from "@/lib/ai/registry";
import { isGoogleConfigured } from "@/lib/auth/google";
import { requireServerSession } from "@/lib/auth/server";
import { forEmbedder } from "@/lib/memory/retrieval/assembly-config";
import { strategySummary } from "@/lib/memory/retrieval/explain";
import { processAssemblyConfig } from "@/lib/runtime";
import { dateContext, durationWords, formatDateTime } from "@/lib/ui/format";
import { AccessTokens } from "./access-tokens";
import { AdministratorDetails } from "./administrator-details";
import { DeleteAccount } from "./delete-account";
import { ImportHistory } from "./import-history";
import { MemoryDefaultSwitch } from "./memory-default-switch";
import { PasswordForm } from "./password-form";
import { PastedMemories } from "./pasted-memories";
import { ProfileForm } from "./profile-form";
import { SignOutButton, SignOutEverywhereButton } from "./sign-out-button";
import { TimeZoneForm } from "./time-zone-form";

export const metadata: Metadata = { title: "Settings" };
export const dynamic = "force-dynamic";

function Section({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-heading`} className="rounded-xl border bg-card p-5 sm:p-6">
      <h2 id={`${id}-heading`} className="text-base font-semibold">
        {title}
      </h2>
      {description && <p className="mt-1 text-sm text-muted-foreground">{description}</p>}
      <div className="mt-4">{children}</div>
    </section>
  );
}

export default async function SettingsPage() {
  const session = await requireServerSession("/settings");
  const db = await getDb();
  const [account, connection, tokens] = await Promise.all([
    getAccount(db, { userId: session.id }),
    gmailConnection(db, session.id),
    listAccessTokens(db, { userId: session.id }),
  ]);
  const gmailAccess = connection.state === "connected";
  const googleConfigured = isGoogleConfigured();
  const dates = dateContext((await headers()).get("accept-language"), account.timeZone);
  const gmail = gmailConnectionView(googleConfigured, connection, (moment) => formatDateTime(moment, dates));
  // The agent's mailbox follows the same rule (lib/agent/mailbox: Gmail when configured and granted).
  const onGmail = googleConfigured && gmailAccess;
  const transcriptionModel = getAiRegistry().config.transcriptionModel;
  const providers = getAiRegistry().describeProviders();
  const retrieval = forEmbedder(processAssemblyConfig().retrieval, providers.embedder);

  return (
    <div className="mx-auto w-full max-w-2xl space-y-5 px-4 py-8 sm:px-6">
      <PageHeader title="Settings" description="Your profile, how memory works for you, and your data." />

      <Section id="profile" title="Profile">
        <p className="mb-5 text-sm text-muted-foreground">
          Signed in as{" "}
          <span data-testid="account-name" className="font-medium text-foreground">
            {account.name ?? "—"}
          </span>{" "}
          (<span data-testid="account-email">{account.email}</span>).
        </p>
        <ProfileForm name={account.name ?? ""} email={account.email} hasPassword={account.hasPassword} />
      </Section>

      <Section
        id="memory"
        title="Memory"
        description="New chats use and save memories unless you turn it off here or in a single chat."
      >
        <MemoryDefaultSwitch initial={account.memoryEnabledDefault} />
        <div className="mt-5">
          <TimeZoneForm initial={account.timeZone} />
        </div>
        <div className="mt-5 flex flex-wrap gap-2">
          <Link href="/memories" className={buttonVariants({ variant: "outline", size: "sm" })}>
            Manage memories
          </Link>
          <a href="/api/memories/export" download className={buttonVariants({ variant: "outline", size: "sm" })}>
            <DownloadIcon aria-hidden="true" />
            Export all memories (JSON)
          </a>
          <Link href="/messages/rated" className={buttonVariants({ variant: "outline", size: "sm" })}>
            <ThumbsUpIcon aria-hidden="true" />
            Rated answers
          </Link>
        </div>
        <p className="mt-5 text-sm text-muted-foreground">
          When you send a message, Lifeline looks for the memories that fit it — along with the ones you pinned and the
          ones from the same chat — and sends the assistant only those. Under each answer you can see which were sent,
          and why.
        </p>
      </Section>

      <Section
        id="import"
        title="Import"
        description="Bring your history from ChatGPT or Claude: each exchange you choose is read for memories, as in a chat here."
      >
        <ImportHistory />
        <div className="mt-6 border-t pt-5">
          <PastedMemories />
        </div>
      </Section>

      <Section
        id="gmail"
        title="Gmail"
        description="The Gmail agent (the chat's “Gmail agent” mode) searches, reads and drafts email, and sends only what you approve."
      >
        <div className="flex flex-wrap items-center gap-3 text-sm">
          <MailIcon className="size-4 text-muted-foreground" aria-hidden="true" />
          <span>Google account</span>
          <span data-testid="gmail-status">
            <Badge variant={gmail.status.tone}>{gmail.status.label}</Badge>
          </span>
        </div>
        {gmail.problem && (
          <p className="mt-3 text-sm text-muted-foreground" data-testid="gmail-problem">
            {gmail.problem}
          </p>
        )}
        <p className="mt-3 text-sm text-muted-foreground" data-testid="agent-mailbox">
          {onGmail
            ? "The agent works on your Gmail."
            : "Until Gmail is connected, the agent works on a demo mailbox: a sample inbox kept in Lifeline, from which nothing is ever sent."}
        </p>
        {gmail.action && (
          <div className="mt-4 max-w-xs">
            <GoogleButton callbackUrl="/settings" label={gmail.action} />
          </div>
        )}
        {!googleConfigured && (
          <p className="mt-3 text-sm text-muted-foreground" data-testid="gmail-unavailable">
            Connecting a Google account is not available on this server yet; whoever runs it can turn it on.
          </p>
        )}
      </Section>

      <Section
        id="access-tokens"
        title="Access tokens"
        description="Let another program use your memory: a token is sent as “Authorization: Bearer”. A read token looks memories and conversations up; read+write also adds, edits and deletes memories. Changing your password or ending all sessions ends every token."
      >
        <AccessTokens
          initial={tokens.map((t) => ({
            ...t,
            createdAt: t.createdAt.toISOString(),
            lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
            expiresAt: t.expiresAt?.toISOString() ?? null,
          }))}
        />
        <p className="mt-4 text-sm text-muted-foreground">
          Assistants such as Claude Desktop, Cursor and VS Code connect to Lifeline&rsquo;s MCP server at{" "}
          <code className="font-mono text-xs">/api/mcp</code> with a token.{" "}
          <Link
            href="/settings/external-calls"
            className="text-brand hover:underline"
            data-testid="external-calls-link"
          >
            Recent external calls
          </Link>{" "}
          shows what each asked and exactly what it received.
        </p>
      </Section>
      <Section id="dictation" title="Dictation">
        <p className="text-sm text-muted-foreground" data-testid="dictation-status">
          {transcriptionModel
            ? `The microphone in the message box records what you say and turns it into text in the box, for you to review before sending. Recordings stop after ${durationWords(dictationConfig.maxRecordingSeconds)}; the audio is not stored.`
            : "Dictation is not available on this server: there is no microphone in the message box."}
        </p>
      </Section>

      {account.hasPassword && (
        <Section
          id="password"
          title="Password"
          description="Changing it signs out every other browser and device and ends every access token."
        >
          <PasswordForm />
        </Section>
      )}

      <Section
        id="session"
        title="Sessions"
        description="Sign out of this browser, or sign out everywhere: “End all sessions” signs out every browser and device signed in to your account, this one included, and ends every access token."
      >
        <div className="flex flex-wrap gap-2">
          <SignOutButton />
          <SignOutEverywhereButton />
        </div>
      </Section>

      <Section
        id="delete"
        title="Delete account"
        description="Deletes your account and everything in it — chats, memories, notes, connected Google account — for good."
      >
        <DeleteAccount email={account.email} hasPassword={account.hasPassword} />
      </Section>

      <AdministratorDetails
        retrieval={strategySummary(retrieval)}
        providers={providers}
        transcriptionModel={transcriptionModel}
        googleConfigured={googleConfigured}
      />
    </div>
  );
}
