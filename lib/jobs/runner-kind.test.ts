import { describe, expect, it } from "vitest";
import { inngestDevMode, jobRunnerKind } from "./runner-kind";

describe("jobRunnerKind", () => {
  it.each([
    [{}, "in-process"],
    [{ INNGEST_DEV: "" }, "in-process"],
    [{ INNGEST_DEV: "0" }, "in-process"],
    [{ INNGEST_DEV: "false" }, "in-process"],
    [{ INNGEST_DEV: "1" }, "inngest"],
    [{ INNGEST_DEV: "http://localhost:8288" }, "inngest"],
    [{ INNGEST_EVENT_KEY: "key" }, "inngest"],
  ])("%j → %s", (env, kind) => {
    expect(jobRunnerKind(env as NodeJS.ProcessEnv)).toBe(kind);
    expect(inngestDevMode(env as NodeJS.ProcessEnv)).toBe("INNGEST_DEV" in env && kind === "inngest");
  });
});
