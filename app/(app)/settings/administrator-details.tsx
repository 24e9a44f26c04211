import { ChevronRightIcon } from "lucide-react";
import type { ReactNode } from "react";

function Env({ children }: { children: ReactNode }) {
  return <code className="rounded bg-muted px-1 py-0.5 font-mono text-xs text-foreground">{children}</code>;
}

function Row({ term, children, testId }: { term: string; children: ReactNode; testId?: string }) {
  return (
    <div className="grid gap-1 sm:grid-cols-[9rem_1fr] sm:gap-3">
      <dt className="font-medium text-foreground">{term}</dt>
      <dd className="min-w-0 break-words" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** The one place of Settings that names environment variables; collapsed, since most users never run a server. */
export function AdministratorDetails({
  retrieval,
  providers,
  transcriptionModel,
  googleConfigured,
}: {
  retrieval: string;
  providers: { model: string; embedder: string };
  transcriptionModel: string | null;
  googleConfigured: boolean;
}) {
  return (
    <details
      id="administrators"
      data-testid="administrator-details"
      className="group rounded-xl border bg-card p-5 text-sm text-muted-foreground sm:p-6"
    >
      <summary className="flex cursor-pointer list-none items-center gap-2 text-base font-semibold text-foreground [&::-webkit-details-marker]:hidden">
        <ChevronRightIcon className="size-4 transition-transform group-open:rotate-90" aria-hidden="true" />
        For administrators
      </summary>
      <p className="mt-3">
        How this server is set up, for whoever runs it. These are set in the server's environment (<Env>.env.local</Env>
        , or the host's settings), not here; the README lists every variable, and{" "}
        <a href="/api/health" className="text-brand hover:underline">
          /api/health
        </a>{" "}
        shows which parts are active.
      </p>
      <dl className="mt-4 space-y-3">
        <Row term="Models">
          Chat <Env>{providers.model}</Env>, embeddings <Env>{providers.embedder}</Env> — <Env>OPENAI_API_KEY</Env>,{" "}
          <Env>OPENAI_BASE_URL</Env>, <Env>LIFELINE_CHAT_MODELS</Env>, <Env>LIFELINE_EMBEDDING_MODEL</Env>.
        </Row>
        <Row term="Retrieval" testId="retrieval-strategy">
          <Env>LIFELINE_RETRIEVAL_STRATEGY</Env>: <span className="text-foreground">{retrieval}</span>{" "}
          (docs/retrieval.md).
        </Row>
        <Row term="Google and Gmail" testId="google-admin">
          {googleConfigured
            ? "Google sign-in is configured: users can connect Gmail."
            : "Google sign-in is not configured: set "}
          {!googleConfigured && (
            <>
              <Env>AUTH_GOOGLE_ID</Env> and <Env>AUTH_GOOGLE_SECRET</Env> (docs/agent.md § Google Cloud setup).
            </>
          )}
        </Row>
        <Row term="Dictation" testId="dictation-admin">
          {transcriptionModel ? (
            <>
              Transcribed by <Env>{transcriptionModel}</Env> (<Env>LIFELINE_TRANSCRIPTION_MODEL</Env>).
            </>
          ) : (
            <>
              Off: it needs a transcription model, which <Env>OPENAI_API_KEY</Env> or <Env>OPENAI_BASE_URL</Env> (a
              server with <Env>/audio/transcriptions</Env>) enables.
            </>
          )}
        </Row>
      </dl>
    </details>
  );
}
