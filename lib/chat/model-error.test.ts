import { describe, expect, it } from "vitest";
import { errorText, MODEL_CONNECTION_DROPPED } from "./model-error";
import { finishNotice } from "./text-answer";

describe("errorText", () => {
  it("reads the message of an in-stream error event's plain object, never [object Object]", () => {
    expect(errorText({ message: "The server had an error.", type: "server_error" })).toBe(
      "The server had an error. (server_error)",
    );
    expect(errorText({ error: { message: "Rate limit reached", code: "rate_limit_exceeded" } })).toBe(
      "Rate limit reached (rate_limit_exceeded)",
    );
    expect(errorText({ unexpected: true })).toBe('{"unexpected":true}');
    expect(errorText(new Error("boom"))).toBe("boom");
  });

  it("says the model connection dropped for a socket closed mid-stream", () => {
    const socket = Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });
    const terminated = Object.assign(new TypeError("terminated"), { cause: socket });
    expect(errorText(new Error("Failed to process successful response", { cause: terminated }))).toBe(
      MODEL_CONNECTION_DROPPED,
    );
  });
});

describe("finishNotice", () => {
  it.each([
    ["stop", "stop", null],
    ["tool-calls", "tool_calls", null],
    ["length", "length", "length"],
    ["content-filter", "content_filter", "content-filter"],
    ["content-filter", "stop", "refusal"],
    ["interrupted", undefined, "no-finish"],
  ] as const)("%s (raw %s) → %s", (finish, raw, notice) => {
    expect(finishNotice(finish, raw)).toBe(notice);
  });
});
