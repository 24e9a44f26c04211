/** Schemas shared by many routes: path parameters and the like. */
import { z } from "zod";

export const uuid = z.uuid({ error: "Must be a valid UUID" });

/** `[id]` routes: the id must be a UUID (a malformed id is a 400, never a database error). */
export const idParams = z.strictObject({ id: uuid });

/** Routes without query parameters reject unknown ones. */
export const noQuery = z.strictObject({});
