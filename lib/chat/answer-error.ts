// A failed answer in one plain sentence, never the provider's text (the Inspect view keeps that).
// Imports nothing: the chat's client components render it.
const CAUSES: [RegExp, string][] = [
  [/connection to the model dropped/i, "The connection to the model dropped before the answer was finished."],
  [/^interrupted\b/i, "This answer was cut off when the server stopped."],
  [/rate.?limit|\b429\b|quota|too many requests/i, "The model's service is busy or over its quota right now."],
  [/timed? ?out|timeout|ETIMEDOUT/i, "The model took too long to answer."],
  [
    /api.?key|\b401\b|\b403\b|unauthori[sz]ed|forbidden|authentication/i,
    "The model's service refused this server's credentials.",
  ],
  [/content.?filter|content policy|safety/i, "The model's service blocked this answer."],
];

export function answerErrorSentence(error: string | null | undefined): string {
  if (!error) return "The model could not answer.";
  return CAUSES.find(([pattern]) => pattern.test(error))?.[1] ?? "The model could not answer.";
}
