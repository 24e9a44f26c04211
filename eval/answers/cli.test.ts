import path from "node:path";
import { describe, expect, it } from "vitest";
import { answersRunId, parseAnswersCli } from "./cli";

const root = "/repo";
const NOW = new Date("2026-12-07T05:00:00.000Z");

describe("parseAnswersCli", () => {
  it("defaults: every contender, observations, all questions, no budget, the shared LoCoMo and audit", () => {
    const options = parseAnswersCli(["--answers"], {}, root, NOW);
    expect(options).toMatchObject({
      contenders: ["lifeline", "full-context", "no-memory"],
      memories: "observations",
      perSample: undefined,
      judgeModel: undefined,
      vague: 100,
      concurrency: 1,
      budget: null,
      dryRun: false,
      locomoPath: path.resolve(root, "../shared/eval/locomo/locomo10.json"),
      auditDir: path.resolve(root, "../shared/eval/locomo/audit"),
      dataDir: path.resolve(root, ".lifeline/eval-answers"),
      out: path.resolve(root, "eval/results/answers-2026-12-07T05-00-00-000Z.json"),
    });
  });

  it("reads the run's flags", () => {
    const options = parseAnswersCli(
      ["--answers", "--samples", "1,conv-30", "--sample", "5", "--contenders", "lifeline", "--memories", "extracted"],
      { LOCOMO_PATH: "/data/locomo10.json" },
      root,
      NOW,
    );
    expect(options).toMatchObject({
      samples: ["1", "conv-30"],
      perSample: 5,
      contenders: ["lifeline"],
      memories: "extracted",
      locomoPath: "/data/locomo10.json",
    });
    expect(
      parseAnswersCli(["--judge-model", "none", "--budget", "50000", "--dry-run"], {}, root).judgeModel,
    ).toBeNull();
    expect(parseAnswersCli(["--budget", "50000"], {}, root).budget).toBe(50000);
  });

  it.each([
    [["--contenders", "lifeline,rag"], /--contenders: "rag" is not one of/],
    [["--memories", "summaries"], /--memories must be observations or extracted/],
    [["--sample", "0"], /--sample must be an integer ≥ 1/],
    [["--budget", "lots"], /--budget must be an integer ≥ 1/],
    [["--concurrency", "1.5"], /--concurrency must be an integer ≥ 1/],
    [["--nonsense"], /Unknown option/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseAnswersCli(argv, {}, root)).toThrow(message);
  });
});

describe("answersRunId", () => {
  it("names two runs started in the same second apart (their users share a database), each by its start", () => {
    const first = answersRunId(NOW);
    const second = answersRunId(new Date(NOW.getTime() + 999));
    expect(first).not.toBe(second);
    expect(first).toMatch(/^answers-20261207050000-[0-9a-f]{8}$/);
    expect(second).toMatch(/^answers-20261207050000-[0-9a-f]{8}$/);
  });
});
