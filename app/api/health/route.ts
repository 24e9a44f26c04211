import { checkHealth, healthView, mayReadHealthDetails } from "@/lib/health";

export const dynamic = "force-dynamic";

/**
 * GET /api/health → 200 `{ ok: true, status: "ok" }` when the database, pgvector and the sign-in
 * configuration are in order, else 503 `{ ok: false, status: "degraded" }`. Signed-in users and
 * callers with `Authorization: Bearer $LIFELINE_HEALTH_TOKEN` also get the details (lib/health.ts).
 */
export async function GET(request: Request) {
  const [health, detailed] = await Promise.all([checkHealth(), mayReadHealthDetails(request)]);
  return Response.json(healthView(health, detailed), {
    status: health.ok ? 200 : 503,
    headers: { "Cache-Control": "no-store", Vary: "Authorization, Cookie" },
  });
}
