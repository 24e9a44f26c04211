import path from "node:path";

export const list = (values: string | readonly string[] | undefined) =>
  (typeof values === "string" ? [values] : (values ?? []))
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);

/** Where LoCoMo and its audit are read from by default: the shared folder beside the repository (never copied in). */
export const SHARED_LOCOMO_DIR = path.join("..", "shared", "eval", "locomo");

export function locomoPath(
  value: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  repoRoot: string,
): string {
  return path.resolve(repoRoot, value ?? env.LOCOMO_PATH ?? path.join(SHARED_LOCOMO_DIR, "locomo10.json"));
}
