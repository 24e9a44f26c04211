import { describe, expect, it } from "vitest";
import { answerErrorSentence } from "./answer-error";
import { MODEL_CONNECTION_DROPPED } from "./model-error";

describe("answerErrorSentence", () => {
  it("says what went wrong in words, never the provider's text", () => {
    const raw =
      "Failed after 3 attempts. Last error: AI_APICallError: The server had an error while processing your request. Sorry about that!";
    expect(answerErrorSentence(raw)).toBe("The model could not answer.");
    expect(answerErrorSentence("The server had an error while processing your request. (server_error)")).toBe(
      "The model could not answer.",
    );
  });

  it("names the causes a person can act on", () => {
    expect(answerErrorSentence(MODEL_CONNECTION_DROPPED)).toBe(
      "The connection to the model dropped before the answer was finished.",
    );
    expect(answerErrorSentence("Rate limit reached for gpt-4o-mini (rate_limit_exceeded)")).toBe(
      "The model's service is busy or over its quota right now.",
    );
    expect(answerErrorSentence("interrupted: the server stopped while answering")).toBe(
      "This answer was cut off when the server stopped.",
    );
    expect(answerErrorSentence("Incorrect API key provided (invalid_api_key)")).toBe(
      "The model's service refused this server's credentials.",
    );
  });

  it("has a sentence for an answer that failed without a stored error", () => {
    expect(answerErrorSentence(null)).toBe("The model could not answer.");
  });
});
