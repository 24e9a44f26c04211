/**
 * register() refuses an unsafe production configuration before anything else runs (Next logs the
 * error and fails every request); development starts with nothing set.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { register } from "./instrumentation";

afterEach(() => {
  vi.unstubAllEnvs();
});

function productionOnTheEmbeddedDefaults(): void {
  vi.stubEnv("NEXT_RUNTIME", "nodejs");
  vi.stubEnv("NODE_ENV", "production");
  for (const name of ["DATABASE_URL", "INNGEST_EVENT_KEY", "INNGEST_SIGNING_KEY", "INNGEST_DEV", "AUTH_SECRET"]) {
    vi.stubEnv(name, "");
  }
}

describe("register()", () => {
  it("throws on a production server without DATABASE_URL, Inngest or AUTH_SECRET, naming each", async () => {
    productionOnTheEmbeddedDefaults();
    const failure = register();
    await expect(failure).rejects.toThrow(/DATABASE_URL is not set/);
    await expect(failure).rejects.toThrow(/INNGEST_EVENT_KEY is not set/);
    await expect(failure).rejects.toThrow(/AUTH_SECRET is not set/);
  });

  it("throws on a malformed variable, naming it", async () => {
    vi.stubEnv("NEXT_RUNTIME", "nodejs");
    vi.stubEnv("LIFELINE_INTERRUPTED_AFTER_MS", "a while");
    await expect(register()).rejects.toThrow(/LIFELINE_INTERRUPTED_AFTER_MS must be a number of milliseconds/);
  });

  it("does nothing during `next build`", async () => {
    productionOnTheEmbeddedDefaults();
    vi.stubEnv("NEXT_PHASE", "phase-production-build");
    await expect(register()).resolves.toBeUndefined();
  });

  it("does nothing on the edge runtime", async () => {
    productionOnTheEmbeddedDefaults();
    vi.stubEnv("NEXT_RUNTIME", "edge");
    await expect(register()).resolves.toBeUndefined();
  });
});
