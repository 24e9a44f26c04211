/** Command-line pieces the evaluation's commands share. */
import path from "node:path";

/** Repeated or comma-separated values, trimmed, empty ones dropped. */
export const list = (values: string | readonly string[] | undefined) =>
  (typeof values === "string" ? [values] : (values ?? []))
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);

/** Where LoCoMo and its audit are read from by default: the shared folder beside the repository (never copied in). */
export const SHARED_LOCOMO_DIR = path.join("..", "shared", "eval", "locomo");

/** `--locomo PATH`, else $LOCOMO_PATH, else ../shared/eval/locomo/locomo10.json, from the repository. */
export function locomoPath(
  value: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  repoRoot: string,
): string {
  return path.resolve(repoRoot, value ?? env.LOCOMO_PATH ?? path.join(SHARED_LOCOMO_DIR, "locomo10.json"));
}
