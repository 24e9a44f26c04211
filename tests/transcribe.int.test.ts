/**
 * Dictation through real HTTP (POST /api/transcribe, then POST /api/chat with the transcript), on
 * PGlite and Postgres, against the scripted OpenAI-compatible transcription server
 * (tests/fixtures/fake-transcriber.ts), which refuses a request OpenAI's reference would refuse.
 * The audio is real speech (espeak-ng). Every refused upload gets its 4xx and reaches nothing:
 * no request at the transcriber, no row written.
 */
import { createHash } from "node:crypto";
import { request as httpRequest } from "node:http";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dictationConfig } from "@/core/config";
import { promptDebug, transcriptions } from "@/db/schema";
import { createAiRegistry, setAiRegistry } from "@/lib/ai/registry";
import { resetRateLimiters } from "@/lib/limits/rate-limit";
import { uploadsInFlight } from "@/lib/limits/uploads";
import { DB_KINDS } from "./db";
import { type FakeTranscriber, startFakeTranscriber } from "./fixtures/fake-transcriber";
import { speechBytes, wavSeconds } from "./fixtures/speech";
import { offlineWithTranscriber } from "./fixtures/transcriber";
import { chunkedUpload, encoded } from "./fixtures/uploads";
import { HttpClient, registerAndSignIn } from "./http-client";
import { useTestServer } from "./test-server";

process.env.AUTH_SECRET = "transcribe-test-secret-0123456789abcdef";
process.env.LIFELINE_CHAT_RATE_LIMIT = "4/60s";

const SPOKEN = "Remind me to water the tomatoes on Friday.";
const TRANSCRIPT = "Remind me to water the tomatoes on Friday.";

let fake: FakeTranscriber;
let wav: Uint8Array<ArrayBuffer>;

beforeAll(async () => {
  fake = await startFakeTranscriber({ transcript: TRANSCRIPT });
  wav = await speechBytes(SPOKEN);
});
afterAll(async () => {
  setAiRegistry(undefined);
  await fake?.close();
});

function upload(bytes: Uint8Array<ArrayBuffer>, type = "audio/wav", extra: Record<string, string> = {}): FormData {
  const form = new FormData();
  form.append("file", new Blob([bytes], { type }), "dictation.wav");
  for (const [name, value] of Object.entries(extra)) form.append(name, value);
  return form;
}

/** A request whose headers claim `contentLength` bytes but whose body is never sent. */
function claimLength(url: string, cookie: string, contentLength: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      new URL("/api/transcribe", url),
      {
        method: "POST",
        headers: {
          cookie,
          "content-type": "multipart/form-data; boundary=x",
          "content-length": String(contentLength),
        },
      },
      (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => {
          body += chunk.toString("utf8");
        });
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, body });
          req.destroy();
        });
      },
    );
    req.on("error", reject);
    req.flushHeaders();
  });
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** An upload whose headers are sent and whose body never comes, until `abort()`. */
function holdUpload(url: string, cookie: string, contentLength: number) {
  let abort = () => {};
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      new URL("/api/transcribe", url),
      {
        method: "POST",
        headers: { cookie, "content-type": "multipart/form-data; boundary=x", "content-length": String(contentLength) },
      },
      (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => {
          body += chunk.toString("utf8");
        });
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, body });
          req.destroy();
        });
      },
    );
    req.on("error", reject);
    req.flushHeaders();
    abort = () => req.destroy();
  });
  response.catch(() => {});
  return { response, abort: () => abort() };
}

describe.each(DB_KINDS)("POST /api/transcribe on %s", (kind) => {
  const ctx = useTestServer(kind);
  const rows = async () => (await ctx.database.db.select({ n: count() }).from(transcriptions))[0]?.n ?? 0;

  beforeEach(() => {
    resetRateLimiters();
    setAiRegistry(offlineWithTranscriber(fake.baseURL));
  });

  it("sends the recording to /audio/transcriptions as OpenAI documents it and returns the transcript; nothing of the audio is stored", async () => {
    const user = await registerAndSignIn(ctx.server.url, `dictate-${kind}`);
    const before = fake.received.length;
    const res = await user.client.request("POST", "/api/transcribe", {
      multipart: upload(wav, "audio/wav", { durationMs: "2600" }),
    });
    expect(res.status, res.text).toBe(200);
    const { transcription } = res.json as {
      transcription: { id: string; text: string; language: string | null; durationSeconds: number; model: string };
    };
    expect(transcription).toMatchObject({ text: TRANSCRIPT, model: "gpt-4o-mini-transcribe", language: null });
    // gpt-4o-mini-transcribe reports no duration: the browser's recording time stands in.
    expect(transcription.durationSeconds).toBe(2.6);

    // Exactly one request reached the server, with the documented fields and nothing else.
    expect(fake.received.slice(before)).toEqual([
      {
        status: 200,
        // temperature 0 is the provider's default, a documented field.
        fields: {
          model: "gpt-4o-mini-transcribe",
          file: "<file audio.wav>",
          response_format: "json",
          temperature: "0",
        },
        file: { name: "audio.wav", type: "audio/wav", size: wav.byteLength, format: "wav", sha256: sha256(wav) },
      },
    ]);

    const [row] = await ctx.database.db.select().from(transcriptions).where(eq(transcriptions.id, transcription.id));
    expect(row).toMatchObject({
      userId: user.id,
      modelId: "gpt-4o-mini-transcribe",
      mediaType: "audio/wav",
      bytes: wav.byteLength,
      audioSeconds: null,
      recordedMs: 2600,
      text: TRANSCRIPT,
      messageId: null,
    });
    expect(row?.latencyMs).toBeGreaterThanOrEqual(0);
    // The row has no column that could hold audio: sizes and text only.
    expect(Object.keys(row ?? {}).sort()).toEqual(
      [
        "audioSeconds",
        "bytes",
        "createdAt",
        "id",
        "language",
        "latencyMs",
        "mediaType",
        "messageId",
        "modelId",
        "provider",
        "recordedMs",
        "text",
        "userId",
      ].sort(),
    );
  });

  it("the recording reaches the model byte for byte, whatever its bytes (CRLFs, dashes, a line like a boundary)", async () => {
    const user = await registerAndSignIn(ctx.server.url, `bytes-${kind}`);
    const tricky = new Uint8Array([
      ...wav,
      ...new TextEncoder().encode("\r\n--\r\n------formdata-undici-0\r\n--x--\r\n\r\n"),
      ...Array.from({ length: 256 }, (_, i) => i),
    ]);
    const before = fake.received.length;
    const res = await user.client.request("POST", "/api/transcribe", { multipart: upload(tricky) });
    expect(res.status, res.text).toBe(200);
    expect(fake.received.slice(before).map((r) => r.file)).toEqual([
      { name: "audio.wav", type: "audio/wav", size: tricky.byteLength, format: "wav", sha256: sha256(tricky) },
    ]);
  });

  it("an upload streamed without Content-Length (chunked) is read and transcribed", async () => {
    const user = await registerAndSignIn(ctx.server.url, `chunked-${kind}`);
    const { bytes, type } = await encoded(upload(wav, "audio/wav", { durationMs: "2600" }));
    const pieces = Array.from({ length: Math.ceil(bytes.byteLength / 4096) }, (_, i) =>
      bytes.subarray(i * 4096, (i + 1) * 4096),
    );
    const before = fake.received.length;
    const res = await chunkedUpload(ctx.server.url, user.client.cookieHeader(), type, pieces);
    expect(res.status, res.body).toBe(200);
    expect(JSON.parse(res.body).transcription.text).toBe(TRANSCRIPT);
    expect(fake.received.slice(before).map((r) => r.file?.sha256)).toEqual([sha256(wav)]);
  });

  it("asks whisper-1 for verbose_json and returns the language and duration it reports", async () => {
    setAiRegistry(offlineWithTranscriber(fake.baseURL, "whisper-1"));
    const user = await registerAndSignIn(ctx.server.url, `whisper-${kind}`);
    const res = await user.client.request("POST", "/api/transcribe", { multipart: upload(wav) });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      transcription: { text: TRANSCRIPT, language: "en", durationSeconds: 2.5, model: "whisper-1" },
    });
    expect(fake.received.at(-1)?.fields.response_format).toBe("verbose_json");
    expect(wavSeconds(wav)).toBeGreaterThan(1);
  });

  it("a message sent from the transcript (edited) says in its answer's debug record that it came from dictation", async () => {
    const user = await registerAndSignIn(ctx.server.url, `send-${kind}`);
    const transcribed = await user.client.request("POST", "/api/transcribe", { multipart: upload(wav) });
    const { transcription } = transcribed.json as { transcription: { id: string } };
    const edited = `${TRANSCRIPT} And the basil.`;
    const chat = await user.client.request("POST", "/api/chat", {
      json: { message: { text: edited }, dictationId: transcription.id },
    });
    expect(chat.status, chat.text).toBe(200);
    const conversationId = chat.headers.get("x-conversation-id");
    const listed = await user.client.request("GET", `/api/conversations/${conversationId}/messages`);
    const { messages } = listed.json as { messages: { id: string; role: string; content: string }[] };
    const question = messages.find((m) => m.role === "user");
    const answer = messages.find((m) => m.role === "assistant");
    expect(question?.content).toBe(edited);

    const debug = await user.client.request("GET", `/api/messages/${answer?.id}/debug`);
    expect(debug.status, debug.text).toBe(200);
    expect((debug.json as { debug: { dictation: unknown } }).debug.dictation).toMatchObject({
      transcriptionId: transcription.id,
      model: "gpt-4o-mini-transcribe",
      mediaType: "audio/wav",
      bytes: wav.byteLength,
      transcript: TRANSCRIPT,
      edited: true,
    });
    const [row] = await ctx.database.db.select().from(transcriptions).where(eq(transcriptions.id, transcription.id));
    expect(row?.messageId).toBe(question?.id);

    // A typed message's record has no dictation.
    const typed = await user.client.request("POST", "/api/chat", {
      json: { conversationId, message: { text: "Thanks" } },
    });
    expect(typed.status).toBe(200);
    const records = await ctx.database.db
      .select({ dictation: promptDebug.dictation })
      .from(promptDebug)
      .where(eq(promptDebug.userId, user.id));
    expect(records.map((r) => r.dictation === null).sort()).toEqual([false, true]);

    // Deleting the conversation deletes the transcription of its message, with its text.
    expect((await user.client.request("DELETE", `/api/conversations/${conversationId}`)).status).toBe(204);
    expect(await ctx.database.db.select().from(transcriptions).where(eq(transcriptions.id, transcription.id))).toEqual(
      [],
    );
  });

  it("a transcription belongs to the one message sent from it: sending it again is a 409 that writes nothing, also when both sends race", async () => {
    const user = await registerAndSignIn(ctx.server.url, `twice-${kind}`);
    const transcribe = async () => {
      const res = await user.client.request("POST", "/api/transcribe", { multipart: upload(wav) });
      return (res.json as { transcription: { id: string } }).transcription.id;
    };
    const dictationId = await transcribe();
    const first = await user.client.request("POST", "/api/chat", {
      json: { message: { text: TRANSCRIPT }, dictationId },
    });
    expect(first.status, first.text).toBe(200);
    const conversationId = first.headers.get("x-conversation-id");
    const [linked] = await ctx.database.db.select().from(transcriptions).where(eq(transcriptions.id, dictationId));
    const messagesBefore = await user.client.request("GET", `/api/conversations/${conversationId}/messages`);

    const again = await user.client.request("POST", "/api/chat", {
      json: { conversationId, message: { text: TRANSCRIPT }, dictationId },
    });
    expect(again.status, again.text).toBe(409);
    expect((again.json as { error: { code: string } }).error.code).toBe("conflict:transcription_used");
    const [after] = await ctx.database.db.select().from(transcriptions).where(eq(transcriptions.id, dictationId));
    expect(after?.messageId).toBe(linked?.messageId);
    const messagesAfter = await user.client.request("GET", `/api/conversations/${conversationId}/messages`);
    const ids = (res: typeof messagesAfter) => (res.json as { messages: { id: string }[] }).messages.map((m) => m.id);
    expect(ids(messagesAfter)).toEqual(ids(messagesBefore));

    // Two sends of one fresh transcript at once (another user: the chat's limit is 4 a minute): one
    // is answered, the other refused, and the transcription is linked to the message answered.
    const racer = await registerAndSignIn(ctx.server.url, `race-${kind}`);
    const transcribed = await racer.client.request("POST", "/api/transcribe", { multipart: upload(wav) });
    const raced = (transcribed.json as { transcription: { id: string } }).transcription.id;
    const started = await racer.client.request("POST", "/api/chat", { json: { message: { text: "Hello" } } });
    const racedIn = started.headers.get("x-conversation-id");
    const sends = await Promise.all(
      [1, 2].map(() =>
        racer.client.request("POST", "/api/chat", {
          json: { conversationId: racedIn, message: { text: TRANSCRIPT }, dictationId: raced },
        }),
      ),
    );
    expect(sends.map((r) => r.status).sort()).toEqual([200, 409]);
    const listed = await racer.client.request("GET", `/api/conversations/${racedIn}/messages`);
    const { messages } = listed.json as { messages: { id: string; role: string }[] };
    const [row] = await ctx.database.db.select().from(transcriptions).where(eq(transcriptions.id, raced));
    expect(messages.filter((m) => m.role === "user")).toHaveLength(2);
    expect(messages.at(-2)?.id).toBe(row?.messageId);
  });

  it("an edit of a dictated message is a new version; the old version keeps its transcription", async () => {
    const user = await registerAndSignIn(ctx.server.url, `edit-${kind}`);
    const transcribed = await user.client.request("POST", "/api/transcribe", { multipart: upload(wav) });
    const { id: dictationId } = (transcribed.json as { transcription: { id: string } }).transcription;
    const sent = await user.client.request("POST", "/api/chat", {
      json: { message: { text: TRANSCRIPT }, dictationId },
    });
    const conversationId = sent.headers.get("x-conversation-id");
    const [linked] = await ctx.database.db.select().from(transcriptions).where(eq(transcriptions.id, dictationId));
    const edited = await user.client.request("POST", "/api/chat", {
      json: { conversationId, editOf: linked?.messageId, message: { text: "Water the basil on Friday." } },
    });
    expect(edited.status, edited.text).toBe(200);
    const [kept] = await ctx.database.db.select().from(transcriptions).where(eq(transcriptions.id, dictationId));
    expect(kept?.messageId).toBe(linked?.messageId);
  });

  it("another user's transcription id is a 404 and sends nothing", async () => {
    const owner = await registerAndSignIn(ctx.server.url, `owner-${kind}`);
    const intruder = await registerAndSignIn(ctx.server.url, `intruder-${kind}`);
    const transcribed = await owner.client.request("POST", "/api/transcribe", { multipart: upload(wav) });
    const { transcription } = transcribed.json as { transcription: { id: string } };
    const res = await intruder.client.request("POST", "/api/chat", {
      json: { message: { text: "Stolen words" }, dictationId: transcription.id },
    });
    expect(res.status, res.text).toBe(404);
    expect((res.json as { error: { code: string } }).error.code).toBe("not_found:transcription");
    const conversations = await intruder.client.request("GET", "/api/conversations");
    expect((conversations.json as { conversations: unknown[] }).conversations).toEqual([]);
  });

  describe("refused uploads get their 4xx, and reach neither the transcriber nor the database", () => {
    let user: Awaited<ReturnType<typeof registerAndSignIn>>;
    beforeAll(async () => {
      user = await registerAndSignIn(ctx.server.url, `refused-${kind}`);
    });

    const cases: [string, () => Promise<{ status: number; json?: unknown; body?: string }>, number, string][] = [
      [
        "a text file",
        () =>
          user.client.request("POST", "/api/transcribe", {
            multipart: upload(new TextEncoder().encode("hello") as Uint8Array<ArrayBuffer>, "text/plain"),
          }),
        415,
        "unsupported_media_type",
      ],
      [
        "a JSON body",
        () => user.client.request("POST", "/api/transcribe", { json: { file: "AAAA" } }),
        415,
        "unsupported_media_type",
      ],
      [
        "an empty file",
        () => user.client.request("POST", "/api/transcribe", { multipart: upload(new Uint8Array(0)) }),
        400,
        "bad_request",
      ],
      [
        "an empty body",
        () =>
          user.client.request("POST", "/api/transcribe", {
            body: "",
            headers: { "content-type": "multipart/form-data; boundary=x" },
          }),
        400,
        "bad_request",
      ],
      [
        "no file field",
        () => {
          const form = new FormData();
          form.append("model", "gpt-4o-mini-transcribe");
          return user.client.request("POST", "/api/transcribe", { multipart: form });
        },
        400,
        "bad_request",
      ],
      [
        "a body that claims to be over the 25 MB limit (never read)",
        async () => {
          const res = await claimLength(ctx.server.url, user.client.cookieHeader(), dictationConfig.maxUploadBytes * 2);
          return { status: res.status, json: JSON.parse(res.body) };
        },
        413,
        "payload_too_large",
      ],
      [
        "a malformed multipart body (it ends inside its file)",
        () =>
          user.client.request("POST", "/api/transcribe", {
            body: '--x\r\ncontent-disposition: form-data; name="file"; filename="a.wav"\r\ncontent-type: audio/wav\r\n\r\nRIFF',
            headers: { "content-type": "multipart/form-data; boundary=x" },
          }),
        400,
        "bad_request",
      ],
      [
        "a multipart body with no boundary in its Content-Type",
        () =>
          user.client.request("POST", "/api/transcribe", {
            body: "--x\r\n\r\n--x--\r\n",
            headers: { "content-type": "multipart/form-data" },
          }),
        400,
        "bad_request",
      ],
      [
        "anonymous",
        () => new HttpClient(ctx.server.url).request("POST", "/api/transcribe", { multipart: upload(wav) }),
        401,
        "unauthorized",
      ],
    ];
    // Bytes that are not an audio container, sent with an audio type: refused on their signature.
    const PNG = Uint8Array.from([
      0x89,
      0x50,
      0x4e,
      0x47,
      0x0d,
      0x0a,
      0x1a,
      0x0a,
      0,
      0,
      0,
      13,
      0x49,
      0x48,
      0x44,
      0x52,
      ...new Array(64).fill(7),
    ]);
    const notAudio: [string, Uint8Array<ArrayBuffer>][] = [
      ["a PNG image", PNG],
      [
        "plain text",
        new TextEncoder().encode("Remind me to water the tomatoes. ".repeat(40)) as Uint8Array<ArrayBuffer>,
      ],
      ["zeros", new Uint8Array(4096)],
      [
        "an HTML page",
        new TextEncoder().encode("<!doctype html><html><body>hi</body></html>") as Uint8Array<ArrayBuffer>,
      ],
    ];
    for (const [what, bytes] of notAudio) {
      for (const type of ["audio/webm", "audio/wav", "audio/mpeg", "audio/ogg"]) {
        cases.push([
          `${what} sent as ${type}`,
          () => user.client.request("POST", "/api/transcribe", { multipart: upload(bytes, type) }),
          415,
          "unsupported_media_type",
        ]);
      }
    }
    for (const [name, send, status, code] of cases) {
      it(`${name} → ${status} ${code}`, async () => {
        const [requests, written] = [fake.received.length, await rows()];
        const res = await send();
        expect(res.status, JSON.stringify(res.json)).toBe(status);
        expect((res.json as { error: { code: string } }).error.code).toBe(code);
        expect(fake.received.length).toBe(requests);
        expect(await rows()).toBe(written);
      });
    }

    it("a body streamed without Content-Length that grows over the limit → 413 before it is read whole", async () => {
      const [requests, written] = [fake.received.length, await rows()];
      const { bytes, type } = await encoded(upload(wav));
      const head = bytes.subarray(0, bytes.byteLength - 64);
      const chunk = new Uint8Array(256 * 1024);
      const total = 2 * dictationConfig.maxUploadBytes;
      const res = await chunkedUpload(
        ctx.server.url,
        user.client.cookieHeader(),
        type,
        (function* () {
          yield head;
          for (let sent = head.byteLength; sent < total; sent += chunk.byteLength) yield chunk;
        })(),
      );
      expect(res.status, res.body).toBe(413);
      expect(JSON.parse(res.body).error.code).toBe("payload_too_large");
      // Answered while the client was still sending: the server stopped at the limit.
      expect(res.sent).toBeLessThan(total);
      expect(fake.received.length).toBe(requests);
      expect(await rows()).toBe(written);
    });

    it("over the chat's rate limit → 429, shared with /api/chat", async () => {
      const limited = await registerAndSignIn(ctx.server.url, `limited-${kind}`);
      for (let i = 0; i < 3; i++) {
        expect((await limited.client.request("POST", "/api/transcribe", { multipart: upload(wav) })).status).toBe(200);
      }
      expect(
        (await limited.client.request("POST", "/api/chat", { json: { message: { text: "one more" } } })).status,
      ).toBe(200);
      const [requests, written] = [fake.received.length, await rows()];
      const res = await limited.client.request("POST", "/api/transcribe", { multipart: upload(wav) });
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(fake.received.length).toBe(requests);
      expect(await rows()).toBe(written);
    });

    it("over the rate limit, the upload is refused before its body is read", async () => {
      const limited = await registerAndSignIn(ctx.server.url, `unread-${kind}`);
      for (let i = 0; i < 4; i++) {
        expect(
          (await limited.client.request("POST", "/api/chat", { json: { message: { text: `hi ${i}` } } })).status,
        ).toBe(200);
      }
      // The body never comes: only a refusal that does not wait for it answers.
      const held = holdUpload(ctx.server.url, limited.client.cookieHeader(), 1024 * 1024);
      const res = await held.response;
      held.abort();
      expect(res.status, res.body).toBe(429);
    });

    it(`at most ${dictationConfig.maxConcurrentUploads} uploads are read at once; one more is a 503 with Retry-After before its body is read`, async () => {
      const users = await Promise.all(
        Array.from({ length: dictationConfig.maxConcurrentUploads + 1 }, (_, i) =>
          registerAndSignIn(ctx.server.url, `busy-${i}-${kind}`),
        ),
      );
      const holders = users.slice(0, -1);
      const held = holders.map((u) => holdUpload(ctx.server.url, u.client.cookieHeader(), 1024 * 1024));
      await expect.poll(() => uploadsInFlight(), { timeout: 10_000 }).toBe(dictationConfig.maxConcurrentUploads);
      const last = users.at(-1);
      if (!last) throw new Error("no users");
      const [requests, written] = [fake.received.length, await rows()];
      const refused = await last.client.request("POST", "/api/transcribe", { multipart: upload(wav) });
      expect(refused.status, refused.text).toBe(503);
      expect((refused.json as { error: { code: string } }).error.code).toBe("unavailable:uploads");
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(fake.received.length).toBe(requests);
      expect(await rows()).toBe(written);
      // An upload that went away gives its slot back.
      for (const h of held) h.abort();
      await expect.poll(() => uploadsInFlight(), { timeout: 10_000 }).toBe(0);
      const accepted = await last.client.request("POST", "/api/transcribe", { multipart: upload(wav) });
      expect(accepted.status, accepted.text).toBe(200);
    });

    it("with no transcriber configured (the offline provider) → 403 naming what enables it", async () => {
      setAiRegistry(createAiRegistry({}));
      const requests = fake.received.length;
      const res = await user.client.request("POST", "/api/transcribe", { multipart: upload(wav) });
      expect(res.status).toBe(403);
      expect((res.json as { error: { message: string } }).error.message).toMatch(/OPENAI_API_KEY or OPENAI_BASE_URL/);
      expect(fake.received.length).toBe(requests);
    });
  });

  it("the transcriber's refusal is a 502 that says so", async () => {
    setAiRegistry(offlineWithTranscriber(fake.baseURL, "gpt-unknown-transcribe"));
    const user = await registerAndSignIn(ctx.server.url, `upstream-${kind}`);
    const written = await rows();
    const res = await user.client.request("POST", "/api/transcribe", { multipart: upload(wav) });
    expect(res.status, res.text).toBe(502);
    expect((res.json as { error: { code: string; message: string } }).error).toMatchObject({
      code: "upstream:transcription",
      message: expect.stringMatching(/HTTP 404/),
    });
    expect(await rows()).toBe(written);
  });
});
