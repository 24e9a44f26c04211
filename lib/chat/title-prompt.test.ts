import { describe, expect, it } from "vitest";
import { titleSchema } from "./title-prompt";

describe("titleSchema", () => {
  it("limits a title to 1–100 characters", () => {
    expect(titleSchema.safeParse({ title: "Trip to Japan" }).success).toBe(true);
    expect(titleSchema.safeParse({ title: "" }).success).toBe(false);
    expect(titleSchema.safeParse({ title: "x".repeat(101) }).success).toBe(false);
  });
});
