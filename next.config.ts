import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Database drivers and the logger load native/wasm files at run time: keep them out of the bundle.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-pgvector", "pg", "pino"],
  // The migrator reads SQL files at run time; make sure deployments carry them.
  outputFileTracingIncludes: { "/**": ["./db/migrations/**/*"] },
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
