/**
 * `npx tsx bench/storage-probe.ts [size] [runs]` — the distance pass over one user's vectors in
 * `vector(1536)` against `halfvec(1536)`, side by side. docs/performance.md has the numbers.
 */
import { Client } from "pg";
import { createAiRegistry } from "@/lib/ai/registry";
import { generateQuestions } from "./corpus";
import { percentile } from "./stats";

async function main() {
  const size = Number(process.argv[2] ?? 10_000);
  const runs = Number(process.argv[3] ?? 40);
  const embedder = createAiRegistry().embedder;
  const url = new URL(process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test");
  url.pathname = `/lifeline_bench_${size}_${embedder.model.replace(/\W+/g, "_")}`.toLowerCase();
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const [user] = (await client.query<{ id: string }>("SELECT value::json->>0 AS id FROM bench_meta LIMIT 1")).rows;
    if (!user) throw new Error(`no bench user in ${url.pathname}: run npm run bench -- --sizes ${size} first`);
    for (const [table, type] of [
      ["probe_vector", "vector(1536)"],
      ["probe_halfvec", "halfvec(1536)"],
    ] as const) {
      await client.query(`DROP TABLE IF EXISTS ${table}`);
      await client.query(`CREATE TABLE ${table} (id uuid, e ${type}) WITH (toast_tuple_target = 8160)`);
      await client.query(`ALTER TABLE ${table} ALTER COLUMN e SET STORAGE MAIN`);
      await client.query(
        `INSERT INTO ${table} SELECT id, embedding::${type} FROM memories WHERE user_id = $1 AND status = 'active'`,
        [user.id],
      );
      await client.query(`VACUUM ANALYZE ${table}`);
    }
    const questions = await embedder.embed(generateQuestions(7, runs));
    const samples = new Map<string, number[]>();
    const time = async (name: string, text: string, params: unknown[] = []) => {
      const started = performance.now();
      await client.query(text, params);
      samples.set(name, [...(samples.get(name) ?? []), performance.now() - started]);
    };
    for (const [i, question] of questions.entries()) {
      const q = `[${question.join(",")}]`;
      for (const [table, type] of [
        ["probe_vector", "vector"],
        ["probe_halfvec", "halfvec"],
      ] as const) {
        const record = i >= 3; // the first three warm the caches and plans
        await time(record ? `${type} read` : "warm-up", `SELECT sum(vector_dims(e)) FROM ${table}`);
        await time(
          record ? `${type} cosine pass` : "warm-up",
          `SELECT max(1 - (e <=> $1::${type}(1536))) FROM ${table}`,
          [q],
        );
      }
    }
    samples.delete("warm-up");
    for (const [name, values] of samples) {
      const sorted = [...values].sort((a, b) => a - b);
      console.log(
        `${name.padEnd(22)} p50 ${percentile(sorted, 50).toFixed(1)}  p95 ${percentile(sorted, 95).toFixed(1)} ms`,
      );
    }
  } finally {
    await client.query("DROP TABLE IF EXISTS probe_vector, probe_halfvec").catch(() => undefined);
    await client.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
