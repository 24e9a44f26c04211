/**
 * The markers that stand in for a deleted memory's text in records derived from it (debug
 * records, extraction decisions): see db/queries/redaction.ts. Plain constants, safe to import
 * from client components.
 */
import { formatterConfig } from "./config";

/** What a deleted memory's text becomes in every derived record. */
export const DELETED_MEMORY = "[deleted memory]";
/** A deleted memory's line in a stored prompt (the formatter's bullet, then the marker). */
export const DELETED_MEMORY_LINE = `${formatterConfig.bullet}${DELETED_MEMORY}`;
/** What a free-text reason that concerned a deleted memory becomes. */
export const REDACTED_REASON = "[redacted: it concerned a deleted memory]";
