import os from "node:os";
import type { NextConfig } from "next";
import { env as processEnv, type RawEnv } from "./core/env";
import { refuseUnsupportedNode } from "./core/node-version";
import packageJson from "./package.json" with { type: "json" };

// Loaded by `next start`, `next build` and `next dev` before anything else of the app runs.
refuseUnsupportedNode(packageJson.engines.node);

/**
 * Security headers of every response — pages, API routes and static files (docs/security.md).
 *
 * The Content-Security-Policy is static, one for the whole app, and says plainly what it allows.
 * Next's documented alternative, a per-request nonce set by proxy.ts, would make every page
 * dynamically rendered (no static pages, no CDN caching), needs the nonce threaded into the root
 * layout for next-themes' inline theme script, and still could not cover the `style="…"`
 * attributes React renders. So:
 * - script-src 'self' 'unsafe-inline': Next's inline bootstrap/flight scripts and next-themes'
 *   inline script run; scripts from any other origin, `eval` and plugins do not. Inline script
 *   injection is therefore not stopped by this policy — React's escaping is the defence there.
 *   (Development adds 'unsafe-eval', which React's dev tooling needs.)
 * - style-src 'self' 'unsafe-inline': Tailwind's stylesheet, React style attributes, injected <style>.
 * - connect-src 'self': the app only talks to itself (chat streams, API); development adds ws: for HMR.
 * - frame-ancestors 'none' (+ X-Frame-Options DENY for old browsers), object-src 'none',
 *   base-uri 'self', form-action 'self'.
 * zod compiles its parsers with `new Function` unless told not to; instrumentation-client.ts sets
 * `jitless` in the browser so no eval is attempted (a blocked attempt is a console error).
 */
export function contentSecurityPolicy(env: RawEnv = processEnv()): string {
  const dev = env.NODE_ENV === "development";
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", "'unsafe-inline'", ...(dev ? ["'unsafe-eval'"] : [])],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'", ...(dev ? ["ws:", "wss:"] : [])],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(" ")}`)
    .join("; ");
}

/** The headers every response carries (tests/security/headers.int.test.ts, e2e/security-headers.spec.ts). */
export function securityHeaders(env: RawEnv = processEnv()): { key: string; value: string }[] {
  return [
    { key: "Content-Security-Policy", value: contentSecurityPolicy(env) },
    { key: "X-Frame-Options", value: "DENY" },
    { key: "X-Content-Type-Options", value: "nosniff" },
    { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
    // The microphone for this origin only (the composer's dictation); no frame, no other origin.
    { key: "Permissions-Policy", value: "camera=(), microphone=(self), geolocation=(), payment=(), usb=()" },
    { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
    // Ignored by browsers over plain http (development, the e2e server); over https it pins https.
    { key: "Strict-Transport-Security", value: "max-age=63072000" },
  ];
}

/**
 * Vercel adds the instrumentation hook's trace (.next/server/instrumentation.js.nft.json) to every
 * function, and outputFileTracingExcludes does not apply to it. So what only one configuration
 * needs is never reached by the tracer (its load or read is behind `turbopackIgnore`) and is
 * traced in here, by configuration at build time, into the routes only:
 * - the embedded database, PGlite (~20 MB of wasm and data, loaded only by db/client.ts), when
 *   the build has no DATABASE_URL: a server built for Postgres never opens it;
 * - the offline embedder's word vectors (lib/offline/assets/, 5.8 MB, read on its first
 *   embedding by lib/offline/word-vectors.ts), when the build has no API embedder
 *   (neither OPENAI_API_KEY nor OPENAI_BASE_URL).
 * tests/production/traces.prod.test.ts checks every trace; `npm run check:vercel` measures the
 * functions Vercel would deploy (docs/deploy.md).
 */
export function conditionalTracing(env: RawEnv = processEnv()): string[] {
  const embeddedDb = !env.DATABASE_URL?.trim();
  const offline = !env.OPENAI_API_KEY?.trim() && !env.OPENAI_BASE_URL?.trim();
  return [...(embeddedDb ? EMBEDDED_DATABASE_FILES : []), ...(offline ? [OFFLINE_ASSETS] : [])];
}

/** What PGlite's load (db/client.ts) reads: drizzle's PGlite driver, PGlite and its pgvector build. */
export const EMBEDDED_DATABASE_FILES = [
  "./node_modules/@electric-sql/pglite/**/*",
  "./node_modules/@electric-sql/pglite-pgvector/**/*",
  "./node_modules/drizzle-orm/pglite/**/*",
];
export const OFFLINE_ASSETS = "./lib/offline/assets/**/*";

/**
 * The hosts `next dev` may be opened through besides localhost: 127.0.0.1, and this machine's own
 * addresses and name — the "Network" URL it prints is one of them. Next blocks its dev resources
 * (scripts, HMR) for any other host, so a page opened there renders but never hydrates (a form's
 * button does nothing). Development only; `next start` ignores the list.
 */
export function devOrigins(
  interfaces: ReturnType<typeof os.networkInterfaces> = os.networkInterfaces(),
  hostname: string = os.hostname(),
): string[] {
  const addresses = Object.values(interfaces)
    .flatMap((list) => list ?? [])
    .flatMap((net) => (net.family === "IPv4" ? [net.address] : net.scopeid === 0 ? [`[${net.address}]`] : []));
  return [...new Set(["127.0.0.1", "[::1]", hostname.toLowerCase(), ...addresses].filter(Boolean))];
}

/**
 * LIFELINE_BUILD_CACHE=0: `next build` writes no Turbopack filesystem cache (.next/cache, ~190 MB,
 * ~30 s to write). For builds nobody repeats in the same directory — a CI run on a fresh clone
 * (scripts/test.sh sets it when CI is set). Unset, the cache makes the next build about half the CPU.
 */
const buildCache = processEnv().LIFELINE_BUILD_CACHE !== "0";

const nextConfig: NextConfig = {
  // Loaded from node_modules at run time, not bundled: the database drivers and the logger read
  // native or wasm files; drizzle-orm must be the same copy as its PGlite driver, which db/client.ts
  // loads untraced; gpt-tokenizer's o200k tables (~3 MB) were otherwise bundled into every chunk
  // group that counts tokens (eleven copies in the chat route's function). @node-rs/bcrypt loads
  // its platform's native binding (a .node file in @node-rs/bcrypt-<platform>) with require.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-pgvector",
    "@node-rs/bcrypt",
    "drizzle-orm",
    "gpt-tokenizer",
    "pg",
    "pino",
  ],
  // The migrator reads SQL files at run time; make sure deployments carry them.
  outputFileTracingIncludes: { "/**": ["./db/migrations/**/*", ...conditionalTracing()] },
  allowedDevOrigins: devOrigins(),
  poweredByHeader: false,
  // proxy.ts gets the URL as the client sent it, not re-serialized from Next's parsed query (which
  // turns bytes that are not UTF-8 into U+FFFD and drops a `__proto__` parameter): it hands that
  // query to the routes and refuses paths that are not UTF-8 (docs/security.md § Input validation).
  skipProxyUrlNormalize: true,
  ...(buildCache ? {} : { experimental: { turbopackFileSystemCacheForBuild: false } }),
  reactStrictMode: true,
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders() }];
  },
};

export default nextConfig;
