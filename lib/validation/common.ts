/** Schemas shared by many routes: path parameters and the like. */
import { z } from "zod";

export const uuid = z.uuid({ error: "Must be a valid UUID" });

/** `[id]` routes: the id must be a UUID (a malformed id is a 400, never a database error). */
export const idParams = z.strictObject({ id: uuid });

/** Routes without query parameters reject unknown ones. */
export const noQuery = z.strictObject({});

/**
 * A tool's arguments (the MCP tools, the chat's memory tools): known fields only, an unknown one
 * named as a JSON string. zod's own message would name it as sent, and the message is the text a
 * refused MCP call returns and records: a key holding NUL or an unpaired surrogate could not be
 * stored as text.
 */
export function toolArguments<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `Unknown argument${issue.keys.length === 1 ? "" : "s"}: ${issue.keys.map((key) => JSON.stringify(key)).join(", ")}`
        : undefined,
  });
}
