import type { Metadata } from "next";
import { GoogleButton } from "@/app/(auth)/_components/google-button";
import { getDb } from "@/db/client";
import { listLinkedProviders } from "@/db/queries/accounts";
import { getAccount } from "@/db/queries/users";
import { GOOGLE_PROVIDER_ID, isGoogleConfigured } from "@/lib/auth/google";
import { requireServerSession } from "@/lib/auth/server";
import { PasswordForm } from "./password-form";
import { SignOutButton } from "./sign-out-button";

export const metadata: Metadata = { title: "Settings" };
export const dynamic = "force-dynamic";

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section
      aria-labelledby={`${title}-heading`}
      className="space-y-4 border-t border-zinc-200 pt-6 dark:border-zinc-800"
    >
      <h2 id={`${title}-heading`} className="text-base font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

export default async function SettingsPage() {
  const session = await requireServerSession("/settings");
  const db = await getDb();
  const [account, providers] = await Promise.all([
    getAccount(db, { userId: session.id }),
    listLinkedProviders(db, { userId: session.id }),
  ]);
  const googleLinked = providers.includes(GOOGLE_PROVIDER_ID);

  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col gap-6 px-6 py-12">
      <h1 className="text-2xl font-semibold tracking-tight">Settings</h1>

      <Section title="Account">
        <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
          <dt className="text-zinc-500 dark:text-zinc-400">Name</dt>
          <dd data-testid="account-name">{account.name ?? "—"}</dd>
          <dt className="text-zinc-500 dark:text-zinc-400">Email</dt>
          <dd data-testid="account-email">{account.email}</dd>
          <dt className="text-zinc-500 dark:text-zinc-400">Google</dt>
          <dd>{googleLinked ? "Connected" : "Not connected"}</dd>
        </dl>
        {isGoogleConfigured() && !googleLinked && (
          <div className="max-w-xs">
            <GoogleButton callbackUrl="/settings" label="Connect Google (Gmail)" />
          </div>
        )}
      </Section>

      {account.hasPassword && (
        <Section title="Password">
          <PasswordForm />
        </Section>
      )}

      <Section title="Session">
        <SignOutButton />
      </Section>
    </main>
  );
}
