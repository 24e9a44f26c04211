import { describe, expect, it } from "vitest";
import { seededRotation } from "./rotation";
import { WORDVEC_SETTINGS } from "./wordvec-embedder";

const dot = (a: readonly number[], b: readonly number[]) => a.reduce((sum, x, i) => sum + x * (b[i] as number), 0);

/** A deterministic pseudo-random vector (not the rotation's own generator). */
function randomVector(length: number, seed: number, sparse = false): number[] {
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 4294967296 - 0.5;
  };
  return Array.from({ length }, () => (sparse && next() < 0.4 ? 0 : next()));
}

describe("seededRotation", () => {
  it("is orthogonal: the images of the identity's columns are orthonormal (12 dimensions, blocks of 4)", () => {
    const rotation = seededRotation(12, { block: 4, rounds: 3, seed: 7 });
    const columns = Array.from({ length: 12 }, (_, i) =>
      rotation.apply(Array.from({ length: 12 }, (_, j) => +(i === j))),
    );
    for (let i = 0; i < 12; i++)
      for (let j = 0; j < 12; j++)
        expect(dot(columns[i] as number[], columns[j] as number[])).toBeCloseTo(+(i === j), 14);
  });

  it("with the embedder's settings, mixes every input into (nearly) every output; one round stays in a block", () => {
    const settings = WORDVEC_SETTINGS.rotation;
    if (!settings) throw new Error("the default embedder has no rotation");
    const rotation = seededRotation(1536, settings);
    const oneRound = seededRotation(1536, { ...settings, rounds: 1 });
    const unit = (input: number) => Array.from({ length: 1536 }, (_, j) => +(input === j));
    const blocksReached = (column: number[]) =>
      [0, 1, 2].filter((block) => column.slice(512 * block, 512 * block + 512).some((x) => x !== 0));
    let fewest = 1536;
    for (let input = 0; input < 1536; input++) {
      const column = rotation.apply(unit(input));
      expect(blocksReached(column), `input ${input}`).toEqual([0, 1, 2]);
      fewest = Math.min(fewest, column.filter((x) => x !== 0).length);
      if (input % 256 === 0) expect(blocksReached(oneRound.apply(unit(input)))).toHaveLength(1);
    }
    // A ±1 sum can cancel exactly for a lone input, so a few outputs may be 0; real vectors mix many inputs.
    expect(fewest).toBeGreaterThan(1536 * 0.9);
  });

  it("keeps norms and dot products of 1,536-d vectors to float precision, dense or sparse", () => {
    const rotation = seededRotation(1536, { block: 512, rounds: 3, seed: 1 });
    const vectors = [1, 2, 3, 4].map((seed) => randomVector(1536, seed, seed % 2 === 0));
    const rotated = vectors.map((v) => rotation.apply(v));
    for (let i = 0; i < vectors.length; i++)
      for (let j = i; j < vectors.length; j++) {
        const before = dot(vectors[i] as number[], vectors[j] as number[]);
        const after = dot(rotated[i] as number[], rotated[j] as number[]);
        expect(Math.abs(after - before)).toBeLessThan(1e-12 * Math.max(1, Math.abs(before)));
      }
  });

  it("is the same transform for the same seed, another for another seed", () => {
    const v = randomVector(1536, 9);
    const settings = { block: 512, rounds: 3, seed: 1 };
    expect(seededRotation(1536, settings).apply(v)).toEqual(seededRotation(1536, settings).apply(v));
    expect(seededRotation(1536, { ...settings, seed: 2 }).apply(v)).not.toEqual(
      seededRotation(1536, settings).apply(v),
    );
  });

  it("turns a sparse vector into a dense one with about half its signs positive", () => {
    const sparse = new Array<number>(1536).fill(0);
    for (const [i, x] of [
      [3, 0.5],
      [400, -0.6],
      [1200, 0.62],
    ] as const)
      sparse[i] = x;
    const rotated = seededRotation(1536, { block: 512, rounds: 3, seed: 1 }).apply(sparse);
    expect(rotated.every((x) => x !== 0)).toBe(true);
    const positive = rotated.filter((x) => x > 0).length;
    expect(positive).toBeGreaterThan(1536 * 0.4);
    expect(positive).toBeLessThan(1536 * 0.6);
  });

  it("refuses a block that is not a power of two dividing the length, and a vector of the wrong length", () => {
    expect(() => seededRotation(1536, { block: 500, rounds: 1, seed: 1 })).toThrow(/power of two/);
    expect(() => seededRotation(1536, { block: 1024, rounds: 1, seed: 1 })).toThrow(/dividing 1536/);
    expect(() => seededRotation(12, { block: 4, rounds: 1, seed: 1 }).apply([1, 2])).toThrow(/expected 12/);
  });
});
