/** The one shape of "this row, else that error" (a missing or foreign id is one answer: 404). */

export async function firstOr<T>(rows: PromiseLike<T[]>, missing: () => Error): Promise<T> {
  const [row] = await rows;
  if (!row) throw missing();
  return row;
}
