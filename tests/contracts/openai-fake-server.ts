/**
 * The strict OpenAI fake as its own process for e2e/openai-faults.spec.ts; a marker in the latest
 * user message (FAULT:cut, FAULT:error, FAULT:length, FAULT:refusal) picks the answer.
 */
import { type ChatRequest, type Reply, startStrictOpenAi } from "./openai-fake";

export const FAULT_REPLIES: Record<string, Reply> = {
  "FAULT:cut": { kind: "cut", text: "Here is the first half of my answer" },
  "FAULT:error": {
    kind: "error-event",
    text: "Starting",
    error: { message: "The server had an error while processing your request.", type: "server_error" },
  },
  "FAULT:length": { kind: "text", text: "This answer runs on until it", finish: "length" },
  "FAULT:refusal": { kind: "refusal", refusal: "I'm sorry, I can't help with that." },
};

function lastUserText(body: ChatRequest): string {
  const last = body.messages.findLast((message) => message.role === "user");
  return JSON.stringify(last?.content ?? "");
}

const port = Number(process.argv[2] ?? 3199);
void startStrictOpenAi(
  (body) => {
    if (body.response_format) return undefined;
    const text = lastUserText(body);
    const marker = Object.keys(FAULT_REPLIES).find((key) => text.includes(key));
    return marker ? FAULT_REPLIES[marker] : { kind: "text", text: "A plain answer." };
  },
  { port },
).then((fake) => console.log(`strict OpenAI fake on ${fake.baseURL}`));
