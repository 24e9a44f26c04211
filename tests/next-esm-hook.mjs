// Node ESM resolve hook for tests. next-auth (ESM) imports "next/server", "next/headers" and
// "next/navigation" without an extension; `next` has no package "exports" map, so Node's own
// resolver cannot find them when vitest loads next-auth natively (Next's bundler can). Map them
// to the real files. Registered by tests/next-esm.ts. Not needed if vitest.config.ts inlines
// next-auth (`server.deps.inline: ["next-auth"]`).
export async function resolve(specifier, context, next) {
  if (/^next\/(server|headers|navigation)$/.test(specifier)) return next(`${specifier}.js`, context);
  return next(specifier, context);
}
