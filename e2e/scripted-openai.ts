/** `tsx e2e/scripted-openai.ts <port> <transcript>`: transcriptions checked against OpenAI's reference, the rest scripted. */
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
