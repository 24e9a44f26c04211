/**
 * Password hashing: bcrypt (cost 12, or LIFELINE_PASSWORD_HASH_COST; production refuses below 10)
 * over a SHA-256 pre-hash. Test suites set a low cost: a stored hash carries its own cost, so
 * verification works whatever the setting.
 * bcrypt reads only the first 72 bytes of its input, and we accept passwords of up to 200
 * characters (up to 800 UTF-8 bytes): without the pre-hash, two long passwords sharing their first
 * 72 bytes would be interchangeable. base64(SHA-256(password)) is 44 ASCII bytes, all of them read.
 *
 * Hashing is deliberately slow (~0.25 s of CPU per call at cost 12). It runs in native code on
 * libuv's thread pool (@node-rs/bcrypt), not on the event loop, so other requests go on meanwhile;
 * it still takes a core, so at most HASH_CONCURRENCY hashes or comparisons run at once per process
 * (libuv's pool has 4 threads, shared with DNS and file I/O); up to HASH_QUEUE more wait, each at most HASH_WAIT_MS; beyond
 * that `PasswordHashingBusy` is thrown (answered 429 with Retry-After, or a "busy" sign-in error).
 */
import { createHash, randomBytes } from "node:crypto";
import { hash as bcryptHash, verify as bcryptVerify } from "@node-rs/bcrypt";
import { env } from "@/core/env";

export const DEFAULT_BCRYPT_COST = 12;

export function bcryptCost(): number {
  return Number(env().LIFELINE_PASSWORD_HASH_COST ?? DEFAULT_BCRYPT_COST);
}

function prehash(password: string): string {
  return createHash("sha256").update(password, "utf8").digest("base64");
}

export const HASH_CONCURRENCY = 2;
export const HASH_QUEUE = 32;
export const HASH_WAIT_MS = 10_000;

export class PasswordHashingBusy extends Error {
  readonly retryAfterSeconds = 2;
  constructor() {
    super("Too many password checks in progress");
    this.name = "PasswordHashingBusy";
  }
}

let active = 0;
let peak = 0;
const waiting: { resolve: () => void; timer: NodeJS.Timeout }[] = [];

/** How many hashes run now, the most that ever ran at once (since the last reset), and how many wait. */
export function hashingLoad(options: { resetPeak?: boolean } = {}): { active: number; peak: number; waiting: number } {
  const load = { active, peak, waiting: waiting.length };
  if (options.resetPeak) peak = active;
  return load;
}

async function acquire(): Promise<void> {
  if (active < HASH_CONCURRENCY) {
    active++;
    peak = Math.max(peak, active);
    return;
  }
  if (waiting.length >= HASH_QUEUE) throw new PasswordHashingBusy();
  await new Promise<void>((resolve, reject) => {
    const entry = {
      resolve,
      timer: setTimeout(() => {
        const i = waiting.indexOf(entry);
        if (i >= 0) waiting.splice(i, 1);
        reject(new PasswordHashingBusy());
      }, HASH_WAIT_MS),
    };
    waiting.push(entry);
  });
}

function release(): void {
  const next = waiting.shift();
  if (next) {
    // The slot passes straight to the next waiter: `active` stays the same.
    clearTimeout(next.timer);
    next.resolve();
  } else {
    active--;
  }
}

async function withHashingSlot<T>(fn: () => Promise<T>): Promise<T> {
  await acquire();
  try {
    return await fn();
  } finally {
    release();
  }
}

export function hashPassword(password: string): Promise<string> {
  return withHashingSlot(() => bcryptHash(prehash(password), bcryptCost()));
}

/** A throw-away hash per cost, made once per process on first use. */
const dummyHashes = new Map<number, Promise<string>>();
function dummyHash(): Promise<string> {
  const cost = bcryptCost();
  let hash = dummyHashes.get(cost);
  if (!hash) {
    hash = bcryptHash(randomBytes(16).toString("hex"), cost);
    dummyHashes.set(cost, hash);
  }
  return hash;
}

/**
 * Compares a password with a stored hash. With no hash (unknown email, Google-only account) it
 * still runs one full bcrypt comparison against a throw-away hash of the same cost, so the time
 * taken does not tell which emails have a password account; the answer is then always false.
 */
export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) {
    const dummy = await dummyHash();
    await withHashingSlot(() => bcryptVerify(prehash(password), dummy));
    return false;
  }
  return withHashingSlot(() => bcryptVerify(prehash(password), hash));
}
