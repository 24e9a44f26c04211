/**
 * Password hashing: bcrypt (cost 12) over a SHA-256 pre-hash.
 * bcrypt reads only the first 72 bytes of its input, and we accept passwords of up to 200
 * characters (up to 800 UTF-8 bytes): without the pre-hash, two long passwords sharing their first
 * 72 bytes would be interchangeable. base64(SHA-256(password)) is 44 ASCII bytes, all of them read.
 */
import { createHash, randomBytes } from "node:crypto";
import bcrypt from "bcryptjs";

export const BCRYPT_COST = 12;

function prehash(password: string): string {
  return createHash("sha256").update(password, "utf8").digest("base64");
}

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(prehash(password), BCRYPT_COST);
}

/** Hashed once per process, in the background from first import. */
const dummyHash: Promise<string> = bcrypt.hash(randomBytes(16).toString("hex"), BCRYPT_COST);

/**
 * Compares a password with a stored hash. With no hash (unknown email, Google-only account) it
 * still runs one full bcrypt comparison against a throw-away hash of the same cost, so the time
 * taken does not tell which emails have a password account; the answer is then always false.
 */
export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) {
    await bcrypt.compare(prehash(password), await dummyHash);
    return false;
  }
  return bcrypt.compare(prehash(password), hash);
}
