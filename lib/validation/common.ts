import { z } from "zod";

export const uuid = z.uuid({ error: "Must be a valid UUID" });

/** A malformed id is a 400, never a database error. */
export const idParams = z.strictObject({ id: uuid });

/** Routes without query parameters reject unknown ones. */
export const noQuery = z.strictObject({});

/**
 * An unknown field is named as a JSON string: a refused MCP call records the message, and a key
 * holding NUL or an unpaired surrogate could not be stored as text.
 */
export function toolArguments<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `Unknown argument${issue.keys.length === 1 ? "" : "s"}: ${issue.keys.map((key) => JSON.stringify(key)).join(", ")}`
        : undefined,
  });
}
