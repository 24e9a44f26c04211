import { checkHealth } from "@/lib/health";

export const dynamic = "force-dynamic";

/** GET /api/health → 200 when the database and pgvector answer, 503 naming the failing part. */
export async function GET() {
  const health = await checkHealth();
  return Response.json(health, { status: health.ok ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
