import { describe, expect, it } from "vitest";
import { conditionalTracing, EMBEDDED_DATABASE_FILES, OFFLINE_ASSETS } from "./next.config";

describe("conditionalTracing", () => {
  it("carries PGlite and the word vectors into a build with neither DATABASE_URL nor an API embedder", () => {
    expect(conditionalTracing({})).toEqual([...EMBEDDED_DATABASE_FILES, OFFLINE_ASSETS]);
    expect(conditionalTracing({ DATABASE_URL: " ", OPENAI_API_KEY: "  " })).toEqual([
      ...EMBEDDED_DATABASE_FILES,
      OFFLINE_ASSETS,
    ]);
  });

  it("leaves PGlite out of a build with DATABASE_URL, and the word vectors out of one with an API embedder", () => {
    expect(conditionalTracing({ DATABASE_URL: "postgres://db/lifeline" })).toEqual([OFFLINE_ASSETS]);
    expect(conditionalTracing({ OPENAI_API_KEY: "sk-test" })).toEqual(EMBEDDED_DATABASE_FILES);
    expect(conditionalTracing({ OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" })).toEqual(EMBEDDED_DATABASE_FILES);
    expect(conditionalTracing({ DATABASE_URL: "postgres://db/lifeline", OPENAI_API_KEY: "sk-test" })).toEqual([]);
  });
});
