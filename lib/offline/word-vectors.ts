/** Read lazily: a server with an API embedder never reads the asset. */
import { readFileSync } from "node:fs";
import path from "node:path";

/** Hidden from Next's file tracer like the read: a literal path is a file reference to it. */
export const WORD_VECTOR_ASSET = path.join(
  /* turbopackIgnore: true */ "lib",
  "offline",
  "assets",
  "wordvec-glove100.bin",
);

export interface WordVectors {
  readonly dims: number;
  readonly count: number;
  readonly sourceWords: number;
  readonly source: string;
  indexOf(word: string): number | undefined;
  word(row: number): string;
  rank(row: number): number;
  addTo(target: number[], row: number, weight: number, offset?: number): void;
}

const MAGIC = "LLWV";

export function parseWordVectors(buffer: Buffer): WordVectors {
  if (buffer.toString("latin1", 0, 4) !== MAGIC || buffer.readUInt8(4) !== 1) {
    throw new Error("word-vector asset: not an LLWV v1 file");
  }
  const headerLength = buffer.readUInt32LE(5);
  let at = 9;
  const header = JSON.parse(buffer.toString("utf8", at, at + headerLength)) as {
    source: string;
    dims: number;
    count: number;
    sourceWords: number;
    wordsBytes: number;
  };
  at += headerLength;
  const { dims, count } = header;
  const words = buffer.toString("utf8", at, at + header.wordsBytes).split("\n");
  at += header.wordsBytes;
  if (words.length !== count) throw new Error(`word-vector asset: ${words.length} words, header says ${count}`);
  const expected = at + count * 8 + count * dims;
  if (buffer.length !== expected) throw new Error(`word-vector asset: ${buffer.length} bytes, expected ${expected}`);
  for (let i = 1; i < count; i++) {
    if (!((words[i - 1] as string) < (words[i] as string))) throw new Error("word-vector asset: words not in order");
  }
  // Copies (a fresh, aligned buffer each): the file's bytes need not be 4-byte aligned. Little-endian, as written.
  const ranks = new Uint32Array(buffer.buffer.slice(buffer.byteOffset + at, buffer.byteOffset + at + 4 * count));
  at += 4 * count;
  const scales = new Float32Array(buffer.buffer.slice(buffer.byteOffset + at, buffer.byteOffset + at + 4 * count));
  at += 4 * count;
  const values = new Int8Array(buffer.buffer, buffer.byteOffset + at, count * dims);
  const indexOf = (word: string): number | undefined => {
    let low = 0;
    let high = count - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const found = words[mid] as string;
      if (found === word) return mid;
      if (found < word) low = mid + 1;
      else high = mid - 1;
    }
    return undefined;
  };
  return {
    dims,
    count,
    sourceWords: header.sourceWords,
    source: header.source,
    indexOf,
    word: (row) => words[row] ?? "",
    rank: (row) => ranks[row] ?? Number.MAX_SAFE_INTEGER,
    addTo(target, row, weight, offset = 0) {
      const scaled = weight * (scales[row] as number);
      const base = row * dims;
      for (let d = 0; d < dims; d++)
        target[offset + d] = (target[offset + d] as number) + scaled * (values[base + d] as number);
    },
  };
}

let loaded: WordVectors | undefined;

/**
 * The read is hidden from Next's file tracer (`turbopackIgnore`): a path built from process.cwd()
 * cannot be scoped, so Turbopack would trace the whole project into every function. next.config.ts
 * adds the asset to the traces exactly when the build has no API embedder.
 */
export function wordVectors(
  file: string = path.resolve(/* turbopackIgnore: true */ process.cwd(), WORD_VECTOR_ASSET),
): WordVectors {
  loaded ??= parseWordVectors(readFileSync(/* turbopackIgnore: true */ file));
  return loaded;
}
