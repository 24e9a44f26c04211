/**
 * A fixed, seeded orthogonal transform: rounds of random sign flips, a random permutation and a
 * normalised fast Walsh–Hadamard transform over each block. Orthogonal, so norms and cosines are
 * kept exactly (to float precision). Its use: the offline embedder's vectors are 100 dense
 * dimensions plus a few hashed words, so their sign codes (`binary_quantize`) held ~100 set bits of
 * 1,536 and Hamming distance ranked them poorly. Rotated, every output mixes inputs from every block
 * (from the second round on, a random permutation sends each block's outputs into every block of
 * 512: tested for the embedder's seed), so the codes become dense sign codes whose Hamming distance
 * follows the angle, as SimHash's do.
 */
import { seededRandom } from "@/core/random";

export interface RotationSettings {
  /** A power of two dividing the vector's length. */
  block: number;
  /** One mixes within a block; two mix across blocks; a third makes the mix closer to a random rotation's. */
  rounds: number;
  seed: number;
}

export interface Rotation {
  readonly dimensions: number;
  apply(vector: readonly number[]): number[];
}

/** In place, unnormalised: H·x for each `block`-long slice. */
function walshHadamard(values: Float64Array, block: number): void {
  for (let start = 0; start < values.length; start += block) {
    for (let half = 1; half < block; half *= 2) {
      for (let i = start; i < start + block; i += 2 * half) {
        for (let j = i; j < i + half; j++) {
          const a = values[j] as number;
          const b = values[j + half] as number;
          values[j] = a + b;
          values[j + half] = a - b;
        }
      }
    }
  }
}

export function seededRotation(dimensions: number, { block, rounds, seed }: RotationSettings): Rotation {
  if (block < 1 || (block & (block - 1)) !== 0 || dimensions % block !== 0)
    throw new Error(`seededRotation: block ${block} must be a power of two dividing ${dimensions}`);
  const random = seededRandom(seed);
  const steps = Array.from({ length: rounds }, () => {
    const signs = Float64Array.from({ length: dimensions }, () => (random() < 0.5 ? -1 : 1));
    const order = Array.from({ length: dimensions }, (_, i) => i);
    for (let i = dimensions - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j] as number, order[i] as number];
    }
    return { signs, order: Int32Array.from(order) };
  });
  const scale = 1 / Math.sqrt(block);
  return {
    dimensions,
    apply(vector) {
      if (vector.length !== dimensions)
        throw new Error(`seededRotation: a vector of ${vector.length} numbers, expected ${dimensions}`);
      let current = Float64Array.from(vector);
      for (const { signs, order } of steps) {
        const next = new Float64Array(dimensions);
        for (let i = 0; i < dimensions; i++) {
          const from = order[i] as number;
          next[i] = (current[from] as number) * (signs[from] as number);
        }
        walshHadamard(next, block);
        for (let i = 0; i < dimensions; i++) next[i] = (next[i] as number) * scale;
        current = next;
      }
      return Array.from(current);
    },
  };
}
