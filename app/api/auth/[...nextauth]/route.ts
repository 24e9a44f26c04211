import type { NextRequest } from "next/server";
import { passthrough } from "@/lib/api/route";
import { handlers } from "@/lib/auth";

/** Auth.js: /api/auth/csrf, /session, /providers, /signin/*, /callback/*, /signout. */
export const GET = passthrough<NextRequest>(handlers.GET);
export const POST = passthrough<NextRequest>(handlers.POST);
