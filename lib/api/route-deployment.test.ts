/**
 * A production server with an unsafe configuration fails every API request clearly, also when
 * instrumentation.ts register() did not run (core/env.ts): logged with the variable to set,
 * answered 500, and the handler never runs.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { logger } from "@/core/logger";
import { route } from "./route";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("route() on an unsafe production configuration", () => {
  it("answers 500 and logs which variables to set, before the handler or the database", async () => {
    vi.stubEnv("NODE_ENV", "production");
    for (const name of ["DATABASE_URL", "INNGEST_EVENT_KEY", "INNGEST_DEV", "AUTH_SECRET"]) vi.stubEnv(name, "");
    const logged: unknown[] = [];
    const fake = {
      child: () => fake,
      error: (...args: unknown[]) => logged.push(args),
      warn: () => {},
      info: () => {},
    } as unknown as ReturnType<typeof logger.child>;
    vi.spyOn(logger, "child").mockReturnValue(fake);
    const handler = vi.fn(async () => ({ ok: true }));
    const response = await route({ auth: "public" }, handler)(new Request("http://localhost/api/anything"), {
      params: Promise.resolve({}),
    });
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("internal");
    expect(handler).not.toHaveBeenCalled();
    const text = JSON.stringify(logged, (_key, value) => (value instanceof Error ? value.message : value));
    expect(text).toContain("DATABASE_URL is not set");
    expect(text).toContain("INNGEST_EVENT_KEY is not set");
    expect(text).toContain("AUTH_SECRET is not set");
  });
});
