/**
 * Next 16's proxy (formerly middleware; Node.js runtime). It sees the URL exactly as the client
 * sent it (`skipProxyUrlNormalize` in next.config.ts) and, in order:
 *
 * 1. refuses a path that does not percent-decode to UTF-8 (`/api/memories/%FF`, `/chat/%ED%A0%80`,
 *    `%C0%AF`): 400 in the app's JSON error shape, with the request id, logged — where Next itself
 *    would answer a plain-text 500 without a log line (the security headers of next.config.ts come
 *    with every answer of the proxy);
 * 2. API requests: hands the route the query string as sent (lib/api/body.ts RAW_QUERY_HEADER), so
 *    that invalid UTF-8 or a `__proto__` parameter reaches the route's query schema instead of
 *    being rewritten by Next; routes answer 401 themselves;
 * 3. signed-out visitors of app pages go to /login?callbackUrl=<where they were going>. Pages and
 *    routes still check the session themselves: this is the polite redirect, not the lock;
 * 4. the page of one record (a chat, an answer's debug view, an external call) whose record is not
 *    the signed-in user's is rewritten to the not-found page, status 404 (lib/ui/record-pages.ts):
 *    the page itself streams behind a loading boundary and could only answer its notFound() with a
 *    200.
 *
 * Which requests come through here is `config.matcher`: the app pages, every API request without a
 * body (so that Next never buffers a request body for the proxy — it would read all of it), and any
 * path with a percent sign. Never static assets, /login or /register (unless their path has a `%`).
 */
import { type NextRequest, NextResponse } from "next/server";
import { AppError } from "@/core/errors";
import { logger } from "@/core/logger";
import { getDb } from "@/db/client";
import { isDecodablePath, RAW_QUERY_HEADER } from "@/lib/api/body";
import { errorResponse, requestIdOf } from "@/lib/api/response";
import { getRequestSession } from "@/lib/auth/session";
import { isRecordPage, recordPageExists } from "@/lib/ui/record-pages";

/**
 * No page or route answers here: a rewrite to it renders app/not-found.tsx, outside every loading
 * boundary, with status 404.
 */
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
    if (isRecordPage(pathname) && !(await recordPageExists(await getDb(), user.id, pathname))) {
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
      // Only requests without a body: for one with a body Next would read all of it for the proxy.
      missing: [
        { type: "header", key: "content-length", value: "0*[1-9][0-9]*" },
        { type: "header", key: "transfer-encoding" },
      ],
    },
    "/(.*%.*)",
  ],
};
