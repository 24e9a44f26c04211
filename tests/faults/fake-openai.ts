/**
 * An OpenAI-compatible server on 127.0.0.1 for the fault suite: embeddings, streamed chat
 * completions and structured (JSON) completions, as a Lifeline configured with OPENAI_BASE_URL
 * calls them. A request whose text contains a held marker is held open (never answered) until
 * the marker is released — the test kills the Lifeline server while it waits.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { chatCompletionBody, completionChunk } from "@/tests/fixtures/openai-compatible";

export const HOLD_EMBEDDING = "HOLD-EMBEDDING";
export const HOLD_MID_STREAM = "HOLD-MID-STREAM";
export const HOLD_EXTRACTION = "HOLD-EXTRACTION";

export interface FakeOpenAi {
  baseURL: string;
  /** Resolves when a request held on `marker` arrives. */
  heldOn(marker: string): Promise<void>;
  /** From now on, requests with `marker` are answered normally (held ones stay held: their client is gone). */
  release(marker: string): void;
  /** Requests answered, by kind. */
  readonly answered: Record<"embeddings" | "stream" | "json", number>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
}

/** A deterministic 8-dimensional embedding (Lifeline zero-pads it to 1536). */
function embed(text: string): number[] {
  const v = Array.from({ length: 8 }, (_, i) => 1 + ((text.charCodeAt(i % Math.max(1, text.length)) || 0) % 7));
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const released = new Set<string>();
  const waiters = new Map<string, () => void>();
  const arrivals = new Map<string, Promise<void>>();
  for (const marker of [HOLD_EMBEDDING, HOLD_MID_STREAM, HOLD_EXTRACTION]) {
    arrivals.set(marker, new Promise<void>((resolve) => waiters.set(marker, resolve)));
  }
  const answered = { embeddings: 0, stream: 0, json: 0 };
  const held = new Set<ServerResponse>();

  const holds = (text: string, marker: string) => {
    if (!text.includes(marker) || released.has(marker)) return false;
    waiters.get(marker)?.();
    return true;
  };

  const server = createServer(async (req, res) => {
    const body = await readJson(req);
    const text = JSON.stringify(body);
    if (req.url?.endsWith("/embeddings")) {
      if (holds(text, HOLD_EMBEDDING)) return void held.add(res);
      const inputs = (Array.isArray(body.input) ? body.input : [body.input]) as string[];
      answered.embeddings++;
      res.writeHead(200, { "content-type": "application/json" });
      return void res.end(
        JSON.stringify({
          object: "list",
          model: "fake-embedding",
          data: inputs.map((input, index) => ({ object: "embedding", index, embedding: embed(String(input)) })),
          usage: { prompt_tokens: 1, total_tokens: 1 },
        }),
      );
    }
    const format = body.response_format as { json_schema?: { name?: string } } | undefined;
    if (!body.stream) {
      const name = format?.json_schema?.name;
      if (name === "memory_extraction" && holds(text, HOLD_EXTRACTION)) return void held.add(res);
      const content = name === "conversation_title" ? { title: "A conversation" } : { memories: [] };
      answered.json++;
      res.writeHead(200, { "content-type": "application/json" });
      return void res.end(
        JSON.stringify(
          chatCompletionBody(
            { content: JSON.stringify(content) },
            { id: "chatcmpl-fake", model: "fake-chat", usage: { prompt_tokens: 1, completion_tokens: 1 } },
          ),
        ),
      );
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const stream = { id: "chatcmpl-stream", model: "fake-chat" };
    res.write(completionChunk(stream, { role: "assistant", content: "" }));
    res.write(completionChunk(stream, { content: "Partial words " }));
    // A second delta after the answer's progress interval, so the partial text is saved.
    await sleep(1_200);
    res.write(completionChunk(stream, { content: "reached the server " }));
    if (holds(text, HOLD_MID_STREAM)) return void held.add(res);
    res.write(
      completionChunk(
        stream,
        { content: "and the answer ends." },
        { finish: "stop", usage: { prompt_tokens: 5, completion_tokens: 7 } },
      ),
    );
    res.write("data: [DONE]\n\n");
    answered.stream++;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    heldOn: (marker) => arrivals.get(marker) ?? Promise.reject(new Error(`unknown marker ${marker}`)),
    release: (marker) => released.add(marker),
    answered,
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
