/**
 * Next 16's proxy (formerly middleware; Node.js runtime): signed-out visitors of app pages go to
 * /login?callbackUrl=<where they were going>. Only the pages in `config.matcher` pass through here —
 * never /api/* (routes answer 401 themselves), /login, /register or static assets. Pages and routes
 * still check the session themselves: this is the polite redirect, not the lock.
 */
import { type NextRequest, NextResponse } from "next/server";
import { getRequestSession } from "@/lib/auth/session";

export async function proxy(request: NextRequest) {
  if (await getRequestSession(request)) return NextResponse.next();
  const { pathname, search } = request.nextUrl;
  const login = new URL("/login", request.nextUrl);
  login.searchParams.set("callbackUrl", `${pathname}${search}`);
  return NextResponse.redirect(login);
}

export const config = {
  matcher: ["/", "/chat/:path*", "/memories/:path*", "/messages/:path*", "/settings/:path*"],
};
