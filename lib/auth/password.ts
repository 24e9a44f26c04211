/**
 * The SHA-256 pre-hash: bcrypt reads only 72 bytes and a password may be 800, so two long passwords
 * sharing a prefix would be interchangeable. A hash takes ~0.25 s of a core at cost 12 on libuv's
 * pool (4 threads, shared with DNS and file I/O), hence the concurrency cap and bounded queue.
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

/** With no hash it still runs one full comparison, so the time taken does not tell which emails have a password account. */
export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) {
    const dummy = await dummyHash();
    await withHashingSlot(() => bcryptVerify(prehash(password), dummy));
    return false;
  }
  return withHashingSlot(() => bcryptVerify(prehash(password), hash));
}
