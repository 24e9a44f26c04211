import { describe, expect, it } from "vitest";
import { extractionCandidateSchema, extractionResultSchema } from "./schema";

const candidate = {
  title: "Sister's name",
  content: "Sister's name is Maya",
  type: "personal",
  importance: 0.7,
  tags: ["family"],
  confidence: 0.9,
  isActionable: false,
  deadline: null,
  evidence: [{ role: "user", quote: "my sister's name is Maya" }],
};

describe("extractionCandidateSchema", () => {
  it("accepts a well-formed candidate, with or without a deadline", () => {
    expect(extractionCandidateSchema.safeParse(candidate).success).toBe(true);
    expect(extractionCandidateSchema.safeParse({ ...candidate, deadline: "2026-12-04" }).success).toBe(true);
  });

  it.each([
    ["a deadline that is not YYYY-MM-DD", { deadline: "Friday" }],
    ["a missing deadline (null is required, not undefined)", { deadline: undefined }],
    ["no evidence", { evidence: [] }],
    ["evidence from a system message", { evidence: [{ role: "system", quote: "x" }] }],
    ["an unknown memory type", { type: "opinion" }],
    ["importance above 1", { importance: 1.5 }],
    ["more than 10 tags", { tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }],
    ["an empty title", { title: "" }],
  ])("rejects %s", (_, change) => {
    expect(extractionCandidateSchema.safeParse({ ...candidate, ...change }).success).toBe(false);
  });
});

describe("extractionResultSchema", () => {
  it("accepts zero to ten memories", () => {
    expect(extractionResultSchema.safeParse({ memories: [] }).success).toBe(true);
    expect(extractionResultSchema.safeParse({ memories: Array(10).fill(candidate) }).success).toBe(true);
    expect(extractionResultSchema.safeParse({ memories: Array(11).fill(candidate) }).success).toBe(false);
  });
});
