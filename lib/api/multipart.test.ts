import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AppError } from "@/core/errors";
import type { UploadedFile } from "@/lib/validation/upload-form";
import { encoded } from "@/tests/fixtures/uploads";
import { checkFormHeaders, FIELD_MAX_BYTES, MAX_PARTS, readMultipart } from "./multipart";

const MB = 1024 * 1024;

/** A stream of `bytes` in chunks of `chunk` bytes. */
function streamOf(bytes: Uint8Array, chunk: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(at, at + chunk));
      at += chunk;
    },
  });
}

function post(body: ReadableStream<Uint8Array>, headers: Record<string, string>): Request {
  return new Request("http://test/upload", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

// Bytes a naive parser would trip on: CRLFs, dashes, a line that looks like a boundary, every byte value.
const TRICKY = new Uint8Array([
  ...new TextEncoder().encode("\r\n--\r\n------formdata-undici-0\r\n--x--\r\n\r\n"),
  ...Array.from({ length: 256 }, (_, i) => i),
  ...randomBytes(MB),
]);

describe("readMultipart", () => {
  for (const [how, declare] of [
    ["with a Content-Length", true],
    ["streamed without one (chunked)", false],
  ] as const) {
    it(`reads fields and files in order, each file's bytes exactly as sent — ${how}`, async () => {
      const form = new FormData();
      form.append("durationMs", "1200");
      form.append("file", new Blob([TRICKY], { type: "audio/webm;codecs=opus" }), "rec.webm");
      form.append("note", "héllo ✓");
      form.append("file", new Blob([TRICKY.subarray(0, 1000)]), "second.bin");
      const { bytes, type } = await encoded(form);
      const headers: Record<string, string> = { "content-type": type };
      if (declare) headers["content-length"] = String(bytes.byteLength);

      const parsed = await readMultipart(post(streamOf(bytes, 7919), headers), bytes.byteLength);

      expect(parsed.keys()).toEqual(["durationMs", "file", "note"]);
      expect(parsed.get("durationMs")).toBe("1200");
      expect(parsed.get("note")).toBe("héllo ✓");
      const [first, second] = parsed.getAll("file") as UploadedFile[];
      expect(first?.filename).toBe("rec.webm");
      expect(first?.type).toBe("audio/webm");
      expect(Buffer.from(first?.bytes ?? []).equals(Buffer.from(TRICKY))).toBe(true);
      expect(second?.filename).toBe("second.bin");
      expect(Buffer.from(second?.bytes ?? []).equals(Buffer.from(TRICKY.subarray(0, 1000)))).toBe(true);
      expect(parsed.get("missing")).toBeNull();
    });
  }

  it("with a Content-Length, the files are views of one buffer of that length: no copy of them is made", async () => {
    const form = new FormData();
    form.append("a", new Blob([TRICKY]), "a.bin");
    form.append("b", new Blob([TRICKY]), "b.bin");
    const { bytes, type } = await encoded(form);
    const parsed = await readMultipart(
      post(streamOf(bytes, 65536), { "content-type": type, "content-length": String(bytes.byteLength) }),
      bytes.byteLength,
    );
    const [a, b] = [parsed.get("a"), parsed.get("b")] as UploadedFile[];
    expect(a?.bytes.buffer).toBe(b?.bytes.buffer);
    expect(a?.bytes.buffer.byteLength).toBe(bytes.byteLength);
  });

  it("a body without Content-Length that grows over the limit is a 413 the moment it passes it: the rest is never read", async () => {
    const chunk = 64 * 1024;
    const limit = 2 * MB;
    let pulled = 0;
    let pulledAtRefusal = -1;
    const endless = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(
          new TextEncoder().encode("--x\r\ncontent-disposition: form-data; name=f; filename=a\r\n\r\n"),
        );
      },
      pull(controller) {
        pulled += chunk;
        controller.enqueue(new Uint8Array(chunk));
      },
    });
    const error = await refusal(
      readMultipart(post(endless, { "content-type": "multipart/form-data; boundary=x" }), limit).finally(() => {
        pulledAtRefusal = pulled;
      }),
    );
    expect(error.code).toBe("payload_too_large");
    expect(error.message).toMatch(/the limit is 2 MB \(2,097,152 bytes\); this one is more than that/);
    // The stream reads ahead of the reader by at most its queue (one chunk here).
    expect(pulledAtRefusal).toBeLessThanOrEqual(limit + 2 * chunk);
  });

  it.each([
    ["a body that ends inside its file", "--x\r\ncontent-disposition: form-data; name=f; filename=a\r\n\r\nabc"],
    ["a body with no closing boundary", "--x\r\ncontent-disposition: form-data; name=a\r\n\r\n1\r\n"],
    ["a body that is not multipart at all", "just some text"],
    ["a part header with no colon", "--x\r\nnot a header\r\n\r\nabc\r\n--x--\r\n"],
    ["an empty body", ""],
  ])("%s → 400 naming the body", async (_name, body) => {
    const bytes = new TextEncoder().encode(body);
    const error = await refusal(
      readMultipart(post(streamOf(bytes, 5), { "content-type": "multipart/form-data; boundary=x" }), MB),
    );
    expect(error.code).toBe("bad_request");
    expect(error.message).toMatch(/^Malformed multipart\/form-data/);
    expect(Object.keys(error.fields ?? {})).toEqual(["body"]);
  });

  it("a body cut off by the client (the connection closed) → 400, not an unhandled error", async () => {
    const cut = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(
          new TextEncoder().encode("--x\r\ncontent-disposition: form-data; name=f; filename=a\r\n\r\n"),
        );
      },
      pull(controller) {
        controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
      },
    });
    const error = await refusal(readMultipart(post(cut, { "content-type": "multipart/form-data; boundary=x" }), MB));
    expect(error.code).toBe("bad_request");
    expect(error.message).toMatch(/cut off/);
  });

  it("a multipart Content-Type without a boundary → 400", async () => {
    const error = await refusal(
      readMultipart(post(streamOf(new Uint8Array(10), 10), { "content-type": "multipart/form-data" }), MB),
    );
    expect(error.code).toBe("bad_request");
    expect(error.message).toMatch(/no boundary/);
  });

  it(`a text field over ${FIELD_MAX_BYTES} bytes → 400 naming it`, async () => {
    const form = new FormData();
    form.append("durationMs", "9".repeat(FIELD_MAX_BYTES + 1));
    const { bytes, type } = await encoded(form);
    const error = await refusal(readMultipart(post(streamOf(bytes, 65536), { "content-type": type }), MB));
    expect(error.code).toBe("bad_request");
    expect(Object.keys(error.fields ?? {})).toEqual(["form.durationMs"]);
  });

  it(`more than ${MAX_PARTS} parts → 400`, async () => {
    const form = new FormData();
    for (let i = 0; i <= MAX_PARTS; i++) form.append(`f${i}`, "x");
    const { bytes, type } = await encoded(form);
    const error = await refusal(readMultipart(post(streamOf(bytes, 65536), { "content-type": type }), MB));
    expect(error.code).toBe("bad_request");
    expect(error.message).toMatch(new RegExp(`more than ${MAX_PARTS} parts`));
  });
});

describe("checkFormHeaders: judged before any of the body is read", () => {
  const untouched = () => {
    let pulled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled = true;
        controller.close();
      },
    });
    return { stream, pulled: () => pulled };
  };

  it.each([
    ["not multipart", { "content-type": "application/json" }, "unsupported_media_type"],
    [
      "a Content-Length over the limit",
      { "content-type": "multipart/form-data; boundary=x", "content-length": String(MB + 1) },
      "payload_too_large",
    ],
    ["an empty body", { "content-type": "multipart/form-data; boundary=x", "content-length": "0" }, "bad_request"],
    [
      "a Content-Length that is not a number",
      { "content-type": "multipart/form-data; boundary=x", "content-length": "12abc" },
      "bad_request",
    ],
  ])("%s → %s", (_name, headers, code) => {
    const body = untouched();
    let error: unknown;
    try {
      checkFormHeaders(post(body.stream, headers), MB);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe(code);
    expect(body.pulled()).toBe(false);
  });

  it("a body without Content-Length is allowed: it is counted as it is read", () => {
    const body = untouched();
    expect(() =>
      checkFormHeaders(post(body.stream, { "content-type": "multipart/form-data; boundary=x" }), MB),
    ).not.toThrow();
  });
});
