/**
 * One statement per hit, so concurrent requests on any instance never both take the last slot. Counts stop at
 * `limit + 1`: being refused does not push the window further.
 */
import { lt, sql } from "drizzle-orm";
import { type Db, selectRows } from "@/db/client";
import { rateLimits } from "@/db/schema";

export interface RateLimitHit {
  /** Over `limit` means refused. */
  count: number;
  resetInMs: number;
}

export async function hitRateLimit(
  db: Db,
  { key, limit, windowMs }: { key: string; limit: number; windowMs: number },
): Promise<RateLimitHit> {
  const window = sql`make_interval(secs => ${windowMs / 1000})`;
  const now = sql`now()`;
  const expired = sql`${rateLimits.expiresAt} <= ${now}`;
  const [row] = await selectRows<{ count: number; reset_ms: number }>(
    db,
    sql`
    INSERT INTO ${rateLimits} (key, window_start, expires_at, count)
    VALUES (${key}, ${now}, ${now} + ${window}, 1)
    ON CONFLICT (key) DO UPDATE SET
      window_start = CASE WHEN ${expired} THEN excluded.window_start ELSE ${rateLimits.windowStart} END,
      expires_at = CASE WHEN ${expired} THEN excluded.expires_at ELSE ${rateLimits.expiresAt} END,
      count = CASE WHEN ${expired} THEN 1 ELSE least(${rateLimits.count} + 1, ${limit + 1}) END
    RETURNING count, (extract(epoch FROM expires_at - ${now}) * 1000)::float8 AS reset_ms`,
  );
  if (!row) throw new Error("rate limit: no row returned");
  return { count: Number(row.count), resetInMs: Math.max(0, Number(row.reset_ms)) };
}

/** For a request that turned out not to count, e.g. a successful sign-in. */
export async function refundRateLimit(db: Db, { key }: { key: string }): Promise<void> {
  await db.execute(
    sql`UPDATE ${rateLimits} SET count = count - 1 WHERE key = ${key} AND count > 0 AND expires_at > now()`,
  );
}

export async function resetRateLimit(db: Db, { key }: { key: string }): Promise<void> {
  await db.execute(sql`DELETE FROM ${rateLimits} WHERE key = ${key}`);
}

export async function deleteExpiredRateLimits(db: Db): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.expiresAt, sql`now()`));
}
