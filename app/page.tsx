import { checkHealth } from "@/lib/health";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const health = await checkHealth();
  const offline = health.model.startsWith("offline/");
  return (
    <main className="mx-auto flex min-h-dvh max-w-2xl flex-col justify-center gap-6 px-6 py-16">
      <h1 className="text-4xl font-semibold tracking-tight">Lifeline</h1>
      <p className="text-lg text-zinc-600 dark:text-zinc-400">
        A chat assistant with long-term memory. You can see, edit and delete what it remembers, and for any answer see
        exactly what the model received and why.
      </p>
      {offline && (
        <p
          role="status"
          className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          Running on the offline model ({health.model}) — set <code>OPENAI_API_KEY</code> for a real language model.
        </p>
      )}
      <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1 text-sm" aria-label="System status">
        <dt className="text-zinc-500">Database</dt>
        <dd data-testid="status-db">
          {health.ok ? `${health.db} · pgvector ${health.pgvector}` : `unavailable (${health.failing})`}
        </dd>
        <dt className="text-zinc-500">Model</dt>
        <dd>{health.model}</dd>
        <dt className="text-zinc-500">Embedder</dt>
        <dd>{health.embedder}</dd>
        <dt className="text-zinc-500">Background jobs</dt>
        <dd>{health.jobs}</dd>
      </dl>
    </main>
  );
}
