/**
 * `npx tsx bench/hnsw-probe.ts [size] [k]` — why the fast path's vector candidates do not come from
 * the HNSW index: for 40 questions on the bench database of `size` (seeded by `npm run bench`),
 * the exact top k by cosine distance (a scan of the user's rows) against pgvector 0.8's iterative
 * HNSW scan (relaxed order, ef_search 40…400): latency and recall of the exact top 20 and top k.
 * A certificate needs every memory more similar than the candidates to be among them; an index
 * that misses one in fifteen of the top 20 cannot give that. docs/performance.md has the numbers.
 */
import { sql } from "drizzle-orm";
import { type Db, openDatabase, selectRows } from "@/db/client";
import { vectorLiteral } from "@/db/queries/vectors";
import { createAiRegistry } from "@/lib/ai/registry";
import { generateQuestions } from "./corpus";
import { percentile } from "./stats";

async function main() {
  const size = Number(process.argv[2] ?? 10_000);
  const k = Number(process.argv[3] ?? 200);
  const embedder = createAiRegistry().embedder;
  const base = new URL(process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test");
  base.pathname = `/lifeline_bench_${size}_${embedder.model.replace(/\W+/g, "_")}`.toLowerCase();
  const database = await openDatabase({ kind: "postgres", url: base.toString(), migrate: false });
  const { db } = database;
  const [meta] = await selectRows<{ value: string }>(db, sql`SELECT value FROM bench_meta LIMIT 1`);
  const userId = (JSON.parse(meta?.value ?? "[]") as string[])[0] ?? "";
  const questions = await embedder.embed(generateQuestions(7, 40));
  const topK = async (tx: Db, vector: number[]) =>
    (
      await selectRows<{ id: string }>(
        tx,
        sql`SELECT id FROM memories
            WHERE user_id = ${userId}::uuid AND status = 'active' AND embedding_model = ${embedder.model}
            ORDER BY embedding <=> ${vectorLiteral(vector)}::vector LIMIT ${k}`,
      )
    ).map((row) => row.id);
  const run = async (settings: string, vector: number[]) => {
    const started = performance.now();
    const ids = await db.transaction(async (tx) => {
      await tx.execute(sql.raw(settings));
      return topK(tx as unknown as Db, vector);
    });
    return { ids, ms: performance.now() - started };
  };
  const exact = [];
  for (const vector of questions) exact.push(await run("SET LOCAL enable_indexscan = off", vector));
  const line = (name: string, ms: number[], recall20?: number, recallK?: number) => {
    const sorted = [...ms].sort((a, b) => a - b);
    const recall =
      recall20 === undefined ? "" : `  recall@20 ${recall20.toFixed(3)}  recall@${k} ${recallK?.toFixed(3)}`;
    console.log(
      `${name.padEnd(22)} p50 ${percentile(sorted, 50).toFixed(1)} ms  p95 ${percentile(sorted, 95).toFixed(1)} ms${recall}`,
    );
  };
  line(
    `exact top ${k} (scan)`,
    exact.map((r) => r.ms),
  );
  for (const ef of [40, 100, 200, 400]) {
    const ms: number[] = [];
    let recall20 = 0;
    let recallK = 0;
    for (const [i, vector] of questions.entries()) {
      const { ids, ms: took } = await run(
        `SET LOCAL hnsw.iterative_scan = relaxed_order; SET LOCAL hnsw.ef_search = ${ef}`,
        vector,
      );
      ms.push(took);
      const found = new Set(ids);
      const want = exact[i]?.ids ?? [];
      recall20 += want.slice(0, 20).filter((id) => found.has(id)).length / Math.min(20, want.length || 1);
      recallK += want.filter((id) => found.has(id)).length / (want.length || 1);
    }
    line(`hnsw ef_search ${ef}`, ms, recall20 / questions.length, recallK / questions.length);
  }
  await database.close();
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
