import { checkHealth, healthView, mayReadHealthDetails } from "@/lib/health";

export const dynamic = "force-dynamic";

/** Details only for signed-in users and `Authorization: Bearer $LIFELINE_HEALTH_TOKEN` (lib/health.ts). */
export async function GET(request: Request) {
  const [health, detailed] = await Promise.all([checkHealth(), mayReadHealthDetails(request)]);
  return Response.json(healthView(health, detailed), {
    status: health.ok ? 200 : 503,
    headers: { "Cache-Control": "no-store", Vary: "Authorization, Cookie" },
  });
}
