/** What a value looks like after JSON (as API responses arrive): Dates become ISO strings. */
export type Jsonify<T> = T extends Date
  ? string
  : T extends (infer U)[]
    ? Jsonify<U>[]
    : T extends object
      ? { [K in keyof T]: Jsonify<T[K]> }
      : T;

/**
 * Server data handed to a client component that later refetches the same data from the API:
 * one shape for both, the one the API sends.
 */
export function jsonify<T>(value: T): Jsonify<T> {
  return JSON.parse(JSON.stringify(value)) as Jsonify<T>;
}
