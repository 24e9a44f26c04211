/** Plain constants, safe to import from client components. */
import { formatterConfig } from "./config";

export const DELETED_MEMORY = "[deleted memory]";
export const DELETED_MEMORY_LINE = `${formatterConfig.bullet}${DELETED_MEMORY}`;
export const REDACTED_REASON = "[redacted: it concerned a deleted memory]";
