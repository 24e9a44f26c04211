/**
 * The OpenAI-compatible server of the e2e dictation run (playwright.dictation.config.ts), as a
 * process: `tsx e2e/scripted-openai.ts <port> <transcript>`. Transcriptions are answered by the
 * scripted transcription server (tests/fixtures/fake-transcriber.ts, which checks each request
 * against OpenAI's reference); chat completions and embeddings by the fault suite's scripted
 * server behind it (tests/faults/fake-openai.ts).
 */
import { startFakeOpenAi } from "@/tests/faults/fake-openai";
import { startFakeTranscriber } from "@/tests/fixtures/fake-transcriber";

const [port, transcript = ""] = process.argv.slice(2);

startFakeOpenAi()
  .then((chat) => startFakeTranscriber({ port: Number(port), transcript, fallback: chat.baseURL }))
  .then((server) => console.log(`scripted OpenAI-compatible server at ${server.baseURL}`))
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
