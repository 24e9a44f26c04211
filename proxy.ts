/**
 * Sees the URL exactly as sent (`skipProxyUrlNormalize`) and, in order:
 * 1. a path that does not percent-decode to UTF-8 → 400 in the app's JSON error shape, logged (Next itself would
 *    answer a plain-text 500 with no log line);
 * 2. API requests get the raw query string (RAW_QUERY_HEADER), so invalid UTF-8 or `__proto__` reaches the
 *    route's schema instead of being rewritten by Next;
 * 3. signed-out visitors of app pages go to /login — the polite redirect, not the lock;
 * 4. another user's record page (or an import's page number past its last) is rewritten to a 404: the page
 *    streams behind a loading boundary and could only answer its notFound() with a 200.
 * The matcher leaves out requests with a body, so Next never buffers one for the proxy.
 */
import { type NextRequest, NextResponse } from "next/server";
import { AppError } from "@/core/errors";
import { logger } from "@/core/logger";
import { getDb } from "@/db/client";
import { isDecodablePath, RAW_QUERY_HEADER } from "@/lib/api/body";
import { errorResponse, requestIdOf } from "@/lib/api/response";
import { getRequestSession } from "@/lib/auth/session";
import { isRecordPage, recordPageExists } from "@/lib/ui/record-pages";

/** A rewrite here renders app/not-found.tsx outside every loading boundary, with status 404. */
const NOT_FOUND_PATH = "/_lifeline/not-found";

const APP_PAGES = /^\/(?:$|(?:chat|memories|messages|settings)(?:\/|$))/;

function refuseUndecodablePath(request: NextRequest, pathname: string): NextResponse {
  const requestId = requestIdOf(request);
  const message = "The URL path is not valid UTF-8 once percent-decoded";
  const response = errorResponse(new AppError("bad_request", message, { fields: { path: message } }), requestId);
  logger.info({ requestId, method: request.method, path: pathname, status: response.status }, "request");
  return new NextResponse(response.body, { status: response.status, headers: response.headers });
}

export async function proxy(request: NextRequest): Promise<NextResponse> {
  const url = new URL(request.url);
  const { pathname } = url;
  if (!isDecodablePath(pathname)) return refuseUndecodablePath(request, pathname);

  if (pathname === "/api" || pathname.startsWith("/api/")) {
    const headers = new Headers(request.headers);
    headers.set(RAW_QUERY_HEADER, url.search.slice(1));
    return NextResponse.next({ request: { headers } });
  }

  if (!APP_PAGES.test(pathname)) return NextResponse.next();
  const user = await getRequestSession(request);
  if (user) {
    if (isRecordPage(pathname) && !(await recordPageExists(await getDb(), user.id, pathname, url.searchParams))) {
      return NextResponse.rewrite(new URL(NOT_FOUND_PATH, request.url));
    }
    return NextResponse.next();
  }
  const login = new URL("/login", request.nextUrl);
  login.searchParams.set("callbackUrl", `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.redirect(login);
}

export const config = {
  matcher: [
    "/",
    "/chat/:path*",
    "/memories/:path*",
    "/messages/:path*",
    "/settings/:path*",
    {
      source: "/api/:path*",
      missing: [
        { type: "header", key: "content-length", value: "0*[1-9][0-9]*" },
        { type: "header", key: "transfer-encoding" },
      ],
    },
    "/(.*%.*)",
  ],
};
