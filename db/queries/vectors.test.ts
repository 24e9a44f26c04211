import { describe, expect, it } from "vitest";
import { EMBEDDING_DIMENSIONS } from "@/core/config";
import { HALF_MAX, half, halfvecValue, vectorLiteral, vectorProblem } from "./vectors";

const vector = (entries: Record<number, number>) => {
  const v = new Array<number>(EMBEDDING_DIMENSIONS).fill(0);
  for (const [i, x] of Object.entries(entries)) v[Number(i)] = x;
  return v;
};

describe("vectorProblem: what memories.embedding (halfvec(1536)) can store and compare", () => {
  it("accepts any finite vector within half precision's range, up to ±65504 itself", () => {
    expect(vectorProblem(vector({ 0: HALF_MAX, 1: -HALF_MAX, 2: 1e-3 }))).toBeNull();
    expect(vectorProblem(vector({ 3: 0.25 }))).toBeNull();
  });

  it("refuses a component beyond ±65504, naming it, its index and half precision", () => {
    expect(vectorProblem(vector({ 0: 1, 7: 65505 }))).toBe(
      "has a component outside half precision's range ±65504 (65505 at index 7); embeddings are stored as halfvec",
    );
    expect(vectorProblem(vector({ 1535: -1e6 }))).toContain("(-1000000 at index 1535)");
  });

  it("refuses a vector that would be stored as the zero vector", () => {
    expect(vectorProblem(vector({}))).toBe("is the zero vector");
    expect(vectorProblem(vector({ 0: 1e-9, 1: -2e-8 }))).toMatch(/^is the zero vector in half precision/);
    expect(vectorProblem(vector({ 0: 1e-7 }))).toBeNull(); // a half subnormal, not zero
  });

  it("keeps the other checks: dimensions, finiteness", () => {
    expect(vectorProblem([1, 2, 3])).toBe(`has 3 dimensions, expected ${EMBEDDING_DIMENSIONS}`);
    expect(vectorProblem(vector({ 2: Number.POSITIVE_INFINITY }))).toBe("contains a non-finite number");
    expect(() => vectorLiteral(vector({ 0: 7e4 }), "the query")).toThrow(/^the query has a component outside/);
    expect(() => halfvecValue(vector({ 0: 7e4 }))).toThrow(/^embedding has a component outside/);
  });

  it("half() is binary16 rounding, to nearest even", () => {
    expect(half(1 + 2 ** -11)).toBe(1);
    expect(half(1 + 3 * 2 ** -11)).toBe(1 + 2 ** -9);
    expect(half(0.1)).toBe(0.0999755859375);
    expect(half(HALF_MAX)).toBe(HALF_MAX);
  });
});
