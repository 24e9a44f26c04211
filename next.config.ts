import type { NextConfig } from "next";
import { env as processEnv, type RawEnv } from "./core/env";

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
    { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
    { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
    // Ignored by browsers over plain http (development, the e2e server); over https it pins https.
    { key: "Strict-Transport-Security", value: "max-age=63072000" },
  ];
}

/**
 * Files a deployment's functions leave out. A build with DATABASE_URL (Vercel's builds see the
 * project's variables) deploys a server on Postgres, which never opens PGlite (db/client.ts imports
 * it only to open it): its ~20 MB of wasm and data stay out of every function. Without
 * DATABASE_URL at build time the embedded database stays in (a server may run on it).
 * docs/deploy.md has the measured sizes.
 */
export function outputFileTracingExcludes(env: RawEnv = processEnv()): Record<string, string[]> | undefined {
  if (!env.DATABASE_URL) return undefined;
  return { "/**": ["./node_modules/@electric-sql/pglite/**/*", "./node_modules/@electric-sql/pglite-pgvector/**/*"] };
}

/**
 * The offline embedder's word vectors (lib/ai/offline/assets/, 5.8 MB) are read from disk on its
 * first embedding, behind `turbopackIgnore` (lib/ai/offline/word-vectors.ts): the tracer never
 * follows the read, so these includes are the only way the asset reaches a trace. A deployment
 * carries it only when built without an API embedder (neither OPENAI_API_KEY nor OPENAI_BASE_URL);
 * with one, it is in no function — the instrumentation hook's included, whose trace the excludes
 * would not reach (tests/production/traces.prod.test.ts, docs/deploy.md).
 */
export function offlineAssetTracing(env: RawEnv = processEnv()): {
  includes: string[];
  excludes: string[];
} {
  const offline = !env.OPENAI_API_KEY?.trim() && !env.OPENAI_BASE_URL?.trim();
  const assets = "./lib/ai/offline/assets/**/*";
  return offline ? { includes: [assets], excludes: [] } : { includes: [], excludes: [assets] };
}

const assetTracing = offlineAssetTracing();

/**
 * LIFELINE_BUILD_CACHE=0: `next build` writes no Turbopack filesystem cache (.next/cache, ~190 MB,
 * ~30 s to write). For builds nobody repeats in the same directory — a CI run on a fresh clone
 * (scripts/test.sh sets it when CI is set). Unset, the cache makes the next build about half the CPU.
 */
const buildCache = processEnv().LIFELINE_BUILD_CACHE !== "0";

const nextConfig: NextConfig = {
  // Database drivers and the logger load native/wasm files at run time: keep them out of the bundle.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-pgvector", "pg", "pino"],
  // The migrator reads SQL files at run time; make sure deployments carry them.
  outputFileTracingIncludes: { "/**": ["./db/migrations/**/*", ...assetTracing.includes] },
  outputFileTracingExcludes: { "/**": [...(outputFileTracingExcludes()?.["/**"] ?? []), ...assetTracing.excludes] },
  poweredByHeader: false,
  ...(buildCache ? {} : { experimental: { turbopackFileSystemCacheForBuild: false } }),
  reactStrictMode: true,
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders() }];
  },
};

export default nextConfig;
