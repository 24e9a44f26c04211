import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { assertSafeDeployment, ConfigError, deploymentProblems, ENV_NAMES, env, parseEnv } from "./env";

afterEach(() => {
  vi.unstubAllEnvs();
});

/** A production server with everything a deployment needs. */
const SAFE = {
  NODE_ENV: "production",
  DATABASE_URL: "postgres://lifeline@db.example:5432/lifeline",
  INNGEST_EVENT_KEY: "event-key",
  INNGEST_SIGNING_KEY: "signkey-prod-0123",
  AUTH_SECRET: "a-secret-of-its-own-0123456789",
};

function refusal(config: Record<string, string | undefined>): string {
  try {
    assertSafeDeployment(config);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected the configuration to be refused");
}

describe("parseEnv", () => {
  it("accepts an empty environment: every variable is optional", () => {
    const parsed = parseEnv({});
    expect(ENV_NAMES.every((name) => parsed[name] === undefined)).toBe(true);
  });

  it("treats blank values as unset and trims the rest", () => {
    expect(parseEnv({ DATABASE_URL: "", OPENAI_API_KEY: "  ", LIFELINE_DATA_DIR: " /data " })).toMatchObject({
      DATABASE_URL: undefined,
      OPENAI_API_KEY: undefined,
      LIFELINE_DATA_DIR: "/data",
    });
  });

  it("ignores variables it does not know", () => {
    expect(parseEnv({ PATH: "/usr/bin", HOME: "/root" })).not.toHaveProperty("PATH");
  });

  it("names every malformed variable in one error, without echoing values", () => {
    let message = "";
    try {
      parseEnv({
        DATABASE_URL: "mysql://root:hunter2@db/lifeline",
        OPENAI_BASE_URL: "localhost:11434",
        LIFELINE_OFFLINE_DELAY_MS: "fast",
        LIFELINE_INTERRUPTED_AFTER_MS: "0",
        LIFELINE_CHAT_RATE_LIMIT: "lots",
        LIFELINE_AUTO_MIGRATE: "yes",
        AUTH_TRUST_HOST: "maybe",
        LOG_LEVEL: "loud",
        LIFELINE_RETRIEVAL_STRATEGY: "fastest",
      });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    for (const name of [
      "DATABASE_URL must be a postgres:// or postgresql:// URL",
      "OPENAI_BASE_URL must be an http:// or https:// URL",
      "LIFELINE_OFFLINE_DELAY_MS must be a number of milliseconds",
      "LIFELINE_INTERRUPTED_AFTER_MS must be more than 0",
      "LIFELINE_CHAT_RATE_LIMIT must be",
      "LIFELINE_AUTO_MIGRATE must be 0 or 1",
      "AUTH_TRUST_HOST must be true, false, 1 or 0",
      "LOG_LEVEL must be one of",
      "LIFELINE_RETRIEVAL_STRATEGY must be one of nearest, weighted, hybrid",
    ]) {
      expect(message).toContain(name);
    }
    expect(message).not.toContain("hunter2");
  });

  it("accepts the documented forms", () => {
    expect(() =>
      parseEnv({
        DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/lifeline",
        OPENAI_BASE_URL: "http://127.0.0.1:11434/v1",
        LIFELINE_OFFLINE_DELAY_MS: "0",
        LIFELINE_INTERRUPTED_AFTER_MS: "300000",
        LIFELINE_CHAT_RATE_LIMIT: "20/60s",
        LIFELINE_SIGNIN_RATE_LIMIT: "10/15m",
        LIFELINE_REGISTER_RATE_LIMIT: "off",
        AUTH_TRUST_HOST: "true",
        LOG_LEVEL: "debug",
        INNGEST_DEV: "http://127.0.0.1:8288",
        LIFELINE_RETRIEVAL_STRATEGY: "weighted",
      }),
    ).not.toThrow();
  });

  it("reads LIFELINE_RETRIEVAL_STRATEGY as one of core/config's strategies, trimmed; anything else is refused", () => {
    for (const name of ["nearest", "weighted", "hybrid"]) {
      expect(parseEnv({ LIFELINE_RETRIEVAL_STRATEGY: ` ${name} ` }).LIFELINE_RETRIEVAL_STRATEGY).toBe(name);
    }
    expect(parseEnv({}).LIFELINE_RETRIEVAL_STRATEGY).toBeUndefined();
    for (const bad of ["Hybrid", "bm25", "weighted,hybrid"]) {
      expect(() => parseEnv({ LIFELINE_RETRIEVAL_STRATEGY: bad })).toThrow(
        /LIFELINE_RETRIEVAL_STRATEGY must be one of/,
      );
    }
  });
});

describe("env()", () => {
  it("reads LIFELINE_MODEL_CONTEXT_TOKENS as a whole number of tokens, at least 1024", () => {
    expect(parseEnv({ LIFELINE_MODEL_CONTEXT_TOKENS: " 32768 " }).LIFELINE_MODEL_CONTEXT_TOKENS).toBe("32768");
    for (const bad of ["8k", "0", "1023", "12.5", "-4096"]) {
      expect(() => parseEnv({ LIFELINE_MODEL_CONTEXT_TOKENS: bad })).toThrow(
        /LIFELINE_MODEL_CONTEXT_TOKENS must be a whole number of tokens, at least 1024/,
      );
    }
  });

  it("reads process.env, and again when it changes", () => {
    vi.stubEnv("LIFELINE_DATA_DIR", "/tmp/one");
    expect(env().LIFELINE_DATA_DIR).toBe("/tmp/one");
    expect(env()).toBe(env());
    vi.stubEnv("LIFELINE_DATA_DIR", "/tmp/two");
    expect(env().LIFELINE_DATA_DIR).toBe("/tmp/two");
  });

  it("throws a ConfigError naming a malformed variable", () => {
    vi.stubEnv("LIFELINE_OFFLINE_DELAY_MS", "soon");
    expect(() => env()).toThrow(/LIFELINE_OFFLINE_DELAY_MS must be a number of milliseconds/);
  });
});

describe("production refuses unsafe defaults", () => {
  it("development and tests run on the embedded defaults with nothing set", () => {
    expect(deploymentProblems({})).toEqual([]);
    expect(deploymentProblems({ NODE_ENV: "development" })).toEqual([]);
    expect(deploymentProblems({ NODE_ENV: "test" })).toEqual([]);
  });

  it("a production server with a database, Inngest and a secret is accepted", () => {
    expect(deploymentProblems(SAFE)).toEqual([]);
    expect(() => assertSafeDeployment(SAFE)).not.toThrow();
  });

  it("`next build` is not a server: it is never refused", () => {
    expect(deploymentProblems({ NODE_ENV: "production", NEXT_PHASE: "phase-production-build" })).toEqual([]);
  });

  it("no DATABASE_URL → refused, naming DATABASE_URL and the opt-in", () => {
    const message = refusal({ ...SAFE, DATABASE_URL: undefined });
    expect(message).toContain("DATABASE_URL is not set");
    expect(message).toContain("LIFELINE_ALLOW_EMBEDDED_DB=1");
    expect(deploymentProblems({ ...SAFE, DATABASE_URL: "" })).toHaveLength(1);
    expect(deploymentProblems({ ...SAFE, DATABASE_URL: undefined, LIFELINE_ALLOW_EMBEDDED_DB: "1" })).toEqual([]);
  });

  it("no Inngest → refused, naming INNGEST_EVENT_KEY and the opt-in", () => {
    const message = refusal({ ...SAFE, INNGEST_EVENT_KEY: undefined, INNGEST_SIGNING_KEY: undefined });
    expect(message).toContain("INNGEST_EVENT_KEY is not set");
    expect(message).toContain("LIFELINE_ALLOW_IN_PROCESS_JOBS=1");
    expect(
      deploymentProblems({
        ...SAFE,
        INNGEST_EVENT_KEY: undefined,
        INNGEST_SIGNING_KEY: undefined,
        LIFELINE_ALLOW_IN_PROCESS_JOBS: "1",
      }),
    ).toEqual([]);
  });

  it("Inngest's dev mode (INNGEST_DEV, unsigned calls to /api/inngest) → refused, naming INNGEST_DEV", () => {
    for (const dev of ["1", "http://127.0.0.1:8288"]) {
      const message = refusal({ ...SAFE, INNGEST_DEV: dev });
      expect(message).toContain("INNGEST_DEV is set");
      expect(refusal({ ...SAFE, INNGEST_EVENT_KEY: undefined, INNGEST_SIGNING_KEY: undefined, INNGEST_DEV: dev })).toBe(
        message,
      );
    }
    expect(deploymentProblems({ ...SAFE, INNGEST_DEV: "0" })).toEqual([]);
    expect(deploymentProblems({ NODE_ENV: "development", INNGEST_DEV: "1" })).toEqual([]);
  });

  it("an Inngest event key without its signing key → refused, naming INNGEST_SIGNING_KEY", () => {
    expect(refusal({ ...SAFE, INNGEST_SIGNING_KEY: undefined })).toContain("INNGEST_SIGNING_KEY is not set");
  });

  it("no AUTH_SECRET → refused, naming AUTH_SECRET; there is no opt-out", () => {
    const message = refusal({
      ...SAFE,
      AUTH_SECRET: " ",
      LIFELINE_ALLOW_EMBEDDED_DB: "1",
      LIFELINE_ALLOW_IN_PROCESS_JOBS: "1",
    });
    expect(message).toContain("AUTH_SECRET is not set");
  });

  it("the fault suite's crash point (LIFELINE_FAULT) → refused, naming it; only the known points parse", () => {
    const [problem] = deploymentProblems({ ...SAFE, LIFELINE_FAULT: "crash-after-answer-final" });
    expect(problem).toMatch(/^LIFELINE_FAULT is set/);
    expect(deploymentProblems({ NODE_ENV: "test", LIFELINE_FAULT: "crash-after-answer-final" })).toEqual([]);
    expect(parseEnv({ LIFELINE_FAULT: "crash-after-answer-final" }).LIFELINE_FAULT).toBe("crash-after-answer-final");
    expect(() => parseEnv({ LIFELINE_FAULT: "crash-anywhere" })).toThrow(/LIFELINE_FAULT must be one of/);
  });

  it("a bcrypt cost below 10 → refused, naming LIFELINE_PASSWORD_HASH_COST; 10 and more are accepted", () => {
    expect(refusal({ ...SAFE, LIFELINE_PASSWORD_HASH_COST: "4" })).toContain("LIFELINE_PASSWORD_HASH_COST is 4");
    expect(deploymentProblems({ ...SAFE, LIFELINE_PASSWORD_HASH_COST: "10" })).toEqual([]);
    expect(deploymentProblems({ NODE_ENV: "test", LIFELINE_PASSWORD_HASH_COST: "4" })).toEqual([]);
    expect(() => parseEnv({ LIFELINE_PASSWORD_HASH_COST: "3" })).toThrow(
      /LIFELINE_PASSWORD_HASH_COST must be between 4 and 15/,
    );
    expect(() => parseEnv({ LIFELINE_PASSWORD_HASH_COST: "twelve" })).toThrow(/must be a whole number/);
  });

  it("Vercel is production even without NODE_ENV, and every problem is named at once", () => {
    const message = refusal({ VERCEL: "1" });
    expect(message).toContain("DATABASE_URL is not set");
    expect(message).toContain("INNGEST_EVENT_KEY is not set");
    expect(message).toContain("AUTH_SECRET is not set");
  });

  it("the embedded default that e2e runs: both opt-ins and a secret", () => {
    expect(
      deploymentProblems({
        NODE_ENV: "production",
        AUTH_SECRET: "e2e-only-secret",
        LIFELINE_ALLOW_EMBEDDED_DB: "1",
        LIFELINE_ALLOW_IN_PROCESS_JOBS: "1",
      }),
    ).toEqual([]);
  });
});

describe("the documentation lists every variable", () => {
  const read = (file: string) => readFileSync(path.join(__dirname, "..", file), "utf8");
  const PLATFORM = ["NODE_ENV", "VERCEL", "NEXT_PHASE"];

  it(".env.example has a line to set every variable core/env.ts reads", () => {
    const example = read(".env.example");
    const settable = (name: string) => new RegExp(`^(# )?${name}=`, "m").test(example);
    expect(ENV_NAMES.filter((name) => !PLATFORM.includes(name) && !settable(name))).toEqual([]);
  });

  it("the README's configuration table names every variable an operator sets", () => {
    const readme = read("README.md");
    expect(ENV_NAMES.filter((name) => !PLATFORM.includes(name) && !readme.includes(`\`${name}\``))).toEqual([]);
  });
});
