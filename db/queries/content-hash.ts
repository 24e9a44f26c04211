/**
 * The one definition of an imported message's content hash, which finds a message again when its
 * export id changed or it has none (docs/import.md): sha256 (hex) of `role`, the original time as
 * ISO 8601 in UTC with milliseconds, and the text in Unicode NFC with every run of ASCII whitespace
 * made one space and a space at either end dropped, joined by line feeds. Migration 0028 computes the same in SQL
 * for messages imported before it.
 */
import { createHash } from "node:crypto";

const ASCII_WHITESPACE = /[ \t\n\v\f\r]+/g;

/** ASCII whitespace only, so SQL computes exactly the same (JavaScript's trim() also drops Unicode spaces). */
export function normaliseForHash(text: string): string {
  return text.normalize("NFC").replace(ASCII_WHITESPACE, " ").replace(/^ | $/g, "");
}

export function messageContentHash(message: { role: string; text: string; createdAt: string | Date }): string {
  const at = new Date(message.createdAt).toISOString();
  return createHash("sha256")
    .update(`${message.role}\n${at}\n${normaliseForHash(message.text)}`)
    .digest("hex");
}

/** A restored memory's content, normalised as above: with its export id, the key of a restore (db/queries/restore.ts). */
export function memoryContentHash(content: string): string {
  return createHash("sha256").update(normaliseForHash(content)).digest("hex");
}
