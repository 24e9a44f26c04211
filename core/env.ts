/**
 * Every environment variable is validated here and read nowhere else (tests/architecture.test.ts enforces it).
 * Values stay strings (blank → unset), so modules keep taking an env object: `env()` in production, a plain
 * object in tests. A production server refuses the embedded defaults unless told otherwise (docs/deploy.md).
 */
import { z } from "zod";
import { type RetrievalStrategyName, retrievalStrategies } from "./config";

/**
 * `@ai-sdk/openai` builds a default provider on import and throws on a blank OPENAI_BASE_URL, which would stop
 * the server at start: blank means unset for the library too (lib/ai/registry.ts imports this module first).
 */
for (const name of ["OPENAI_BASE_URL", "OPENAI_API_KEY"]) {
  if (process.env[name]?.trim() === "") delete process.env[name];
}

export type RawEnv = Readonly<Record<string, string | undefined>>;

/** `DATABASE_URL=` is the same as no DATABASE_URL. */
function variable(check: z.ZodType<string, string> = z.string()) {
  return z
    .string()
    .optional()
    .transform((value) => value?.trim() || undefined)
    .pipe(check.optional());
}

const postgresUrl = z.string().regex(/^postgres(?:ql)?:\/\/\S+$/, "must be a postgres:// or postgresql:// URL");
const httpUrl = z.string().regex(/^https?:\/\/\S+$/, "must be an http:// or https:// URL");
const zeroOrOne = z.enum(["0", "1"], { error: "must be 0 or 1" });
const boolean = z.string().regex(/^(?:1|0|true|false)$/i, "must be true, false, 1 or 0");
const milliseconds = (min: "zero" | "positive") =>
  z
    .string()
    .regex(/^\d+(?:\.\d+)?$/, "must be a number of milliseconds")
    .refine((value) => min === "zero" || Number(value) > 0, "must be more than 0");
const rateLimit = z
  .string()
  .regex(
    /^(?:off|[1-9]\d*\s*\/\s*[1-9]\d*\s*(?:ms|s|m|h)?)$/i,
    'must be "<requests>/<window>" such as "20/60s", or "off"',
  );
const bcryptCost = z
  .string()
  .regex(/^\d+$/, "must be a whole number")
  .refine((value) => Number(value) >= 4 && Number(value) <= 15, "must be between 4 and 15");
const contextTokens = z
  .string()
  .regex(/^\d+$/, "must be a whole number of tokens, at least 1024")
  .refine((value) => Number(value) >= 1024, "must be a whole number of tokens, at least 1024");
const strategyNames = Object.keys(retrievalStrategies) as [RetrievalStrategyName, ...RetrievalStrategyName[]];
const retrievalStrategy = z.enum(strategyNames, { error: `must be one of ${strategyNames.join(", ")}` });
const trustedProxy = z
  .string()
  .regex(/^(?:none|vercel|[1-9])$/i, 'must be "none", "vercel" or the number of proxies in front (1–9)');
/** Crash points of the fault suite (tests/faults). */
export const FAULT_POINTS = ["crash-after-answer-final"] as const;
export type FaultPoint = (typeof FAULT_POINTS)[number];
const faultPoint = z.enum(FAULT_POINTS, { error: `must be one of ${FAULT_POINTS.join(", ")}` });
const logLevel = z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
  error: "must be one of fatal, error, warn, info, debug, trace, silent",
});

const schema = z.object({
  DATABASE_URL: variable(postgresUrl),
  DATABASE_URL_UNPOOLED: variable(postgresUrl),
  POSTGRES_URL_NON_POOLING: variable(postgresUrl),
  LIFELINE_DATA_DIR: variable(),
  LIFELINE_AUTO_MIGRATE: variable(zeroOrOne),
  LIFELINE_ALLOW_EMBEDDED_DB: variable(zeroOrOne),
  OPENAI_API_KEY: variable(),
  OPENAI_BASE_URL: variable(httpUrl),
  LIFELINE_CHAT_MODELS: variable(),
  LIFELINE_EMBEDDING_MODEL: variable(),
  LIFELINE_EXTRACTION_MODEL: variable(),
  LIFELINE_TRANSCRIPTION_MODEL: variable(),
  LIFELINE_MODEL_CONTEXT_TOKENS: variable(contextTokens),
  LIFELINE_OFFLINE_DELAY_MS: variable(milliseconds("zero")),
  LIFELINE_RETRIEVAL_STRATEGY: variable(retrievalStrategy),
  INNGEST_EVENT_KEY: variable(),
  INNGEST_SIGNING_KEY: variable(),
  INNGEST_DEV: variable(),
  LIFELINE_ALLOW_IN_PROCESS_JOBS: variable(zeroOrOne),
  AUTH_SECRET: variable(),
  AUTH_URL: variable(httpUrl),
  AUTH_TRUST_HOST: variable(boolean),
  AUTH_GOOGLE_ID: variable(),
  AUTH_GOOGLE_SECRET: variable(),
  LIFELINE_PASSWORD_HASH_COST: variable(bcryptCost),
  LIFELINE_CHAT_RATE_LIMIT: variable(rateLimit),
  LIFELINE_EMBED_RATE_LIMIT: variable(rateLimit),
  LIFELINE_SIGNIN_RATE_LIMIT: variable(rateLimit),
  LIFELINE_SIGNIN_IP_RATE_LIMIT: variable(rateLimit),
  LIFELINE_REGISTER_RATE_LIMIT: variable(rateLimit),
  LIFELINE_ACCESS_TOKEN_RATE_LIMIT: variable(rateLimit),
  LIFELINE_ACCESS_TOKEN_USER_RATE_LIMIT: variable(rateLimit),
  LIFELINE_TRUSTED_PROXY: variable(trustedProxy),
  LIFELINE_INTERRUPTED_AFTER_MS: variable(milliseconds("positive")),
  LIFELINE_HEALTH_TOKEN: variable(),
  LOG_LEVEL: variable(logLevel),
  // Refused by a production server.
  LIFELINE_FAULT: variable(faultPoint),
  LIFELINE_BUILD_CACHE: variable(zeroOrOne),
  // Set by the platform, not by an operator.
  NODE_ENV: variable(),
  VERCEL: variable(),
  NEXT_PHASE: variable(),
});

export type Env = z.output<typeof schema>;
export type EnvName = keyof Env;

export const ENV_NAMES = Object.keys(schema.shape) as EnvName[];

export class ConfigError extends Error {
  override readonly name = "ConfigError";

  constructor(
    readonly problems: readonly string[],
    headline = "Lifeline's configuration is invalid",
  ) {
    super(
      `${headline}:\n${problems.map((problem) => `  - ${problem}`).join("\n")}\nSee .env.example and docs/deploy.md.`,
    );
  }
}

export function parseEnv(raw: RawEnv): Env {
  const picked = Object.fromEntries(ENV_NAMES.map((name) => [name, raw[name]]));
  const result = schema.safeParse(picked);
  if (result.success) return result.data;
  // Values are never echoed: some of them are secrets.
  throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`));
}

let cached: { key: string; env: Env } | undefined;

export function env(): Env {
  const raw = process.env;
  const key = JSON.stringify(ENV_NAMES.map((name) => raw[name] ?? null));
  if (cached?.key !== key) cached = { key, env: parseEnv(raw) };
  return cached.env;
}

/** Anything but "0" or "false" (e.g. "1" or the dev server's URL). */
export function isInngestDev(config: RawEnv): boolean {
  const dev = config.INNGEST_DEV?.trim();
  return dev !== undefined && dev !== "" && dev !== "0" && dev !== "false";
}

/** `next start` or Vercel — but not `next build`. */
export function isProductionServer(config: RawEnv): boolean {
  if (config.NEXT_PHASE === "phase-production-build") return false;
  return config.NODE_ENV === "production" || Boolean(config.VERCEL?.trim());
}

/** OWASP's floor; the default is 12. */
export const MIN_PRODUCTION_HASH_COST = 10;

/** The embedded defaults are for development, a demo or one long-lived server that opts in. */
export function deploymentProblems(config: RawEnv): string[] {
  if (!isProductionServer(config)) return [];
  const set = (name: string) => Boolean(config[name]?.trim());
  const problems: string[] = [];
  if (!set("DATABASE_URL") && config.LIFELINE_ALLOW_EMBEDDED_DB?.trim() !== "1") {
    problems.push(
      "DATABASE_URL is not set: production would keep every account and memory in embedded PGlite on this " +
        "machine's disk (lost on Vercel and any serverless or multi-instance host). Set DATABASE_URL to a " +
        "Postgres with pgvector — or LIFELINE_ALLOW_EMBEDDED_DB=1 for a single long-lived server with a persistent disk.",
    );
  }
  if (isInngestDev(config)) {
    problems.push(
      "INNGEST_DEV is set: Inngest's dev mode skips request signatures, so anyone could call /api/inngest and run " +
        "Lifeline's functions. Unset INNGEST_DEV on a production server and set INNGEST_EVENT_KEY and " +
        "INNGEST_SIGNING_KEY (Inngest Cloud) — or, for a single long-lived server, LIFELINE_ALLOW_IN_PROCESS_JOBS=1.",
    );
  } else if (!set("INNGEST_EVENT_KEY")) {
    if (config.LIFELINE_ALLOW_IN_PROCESS_JOBS?.trim() !== "1") {
      problems.push(
        "INNGEST_EVENT_KEY is not set (nor INNGEST_SIGNING_KEY): memory extraction would run in-process, where a " +
          "serverless function is frozen after its response and the work is lost. Set INNGEST_EVENT_KEY and " +
          "INNGEST_SIGNING_KEY — or LIFELINE_ALLOW_IN_PROCESS_JOBS=1 for a single long-lived server.",
      );
    }
  } else if (!set("INNGEST_SIGNING_KEY")) {
    problems.push(
      "INNGEST_SIGNING_KEY is not set: Inngest Cloud cannot call /api/inngest without it. Set it from the Inngest dashboard.",
    );
  }
  if (set("LIFELINE_FAULT")) {
    problems.push(
      "LIFELINE_FAULT is set: it makes the server kill itself at a crash point (the fault suite's hook, tests/faults). " +
        "Unset it on a production server.",
    );
  }
  const hashCost = Number(config.LIFELINE_PASSWORD_HASH_COST?.trim() || MIN_PRODUCTION_HASH_COST);
  if (hashCost < MIN_PRODUCTION_HASH_COST) {
    problems.push(
      `LIFELINE_PASSWORD_HASH_COST is ${hashCost}: production hashes passwords at bcrypt cost ` +
        `${MIN_PRODUCTION_HASH_COST} or more (the default is 12). Low costs are for test suites only.`,
    );
  }
  if (!set("AUTH_SECRET")) {
    problems.push(
      "AUTH_SECRET is not set: production needs a secret of its own to encrypt sessions. Generate one with " +
        "`openssl rand -base64 32` and set AUTH_SECRET.",
    );
  }
  return problems;
}

/** Cheap after the first call (env() is cached): the request edges call it on every request. */
export function assertSafeDeployment(config: RawEnv = env()): void {
  const problems = deploymentProblems(config);
  if (problems.length > 0)
    throw new ConfigError(problems, "Lifeline refuses to run in production with this configuration");
}
