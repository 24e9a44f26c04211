/**
 * Reading an upload: a multipart/form-data body, judged on its headers (checkFormHeaders) before
 * any of it is read, then parsed as it streams in (readMultipart, with busboy) straight into the
 * bytes the handler gets — each file held once, never as a platform FormData and a copy of it.
 *
 * Bounded memory:
 * - the body's bytes are counted as they arrive; past `maxBytes` reading stops and the 413 goes out
 *   at once, whether the body declared its length or is chunked. The rest is drained in the
 *   background up to DRAIN_MAX_BYTES, as lib/api/body.ts does for JSON, so the connection stays
 *   usable for a client that sent a little too much;
 * - with a Content-Length (≤ maxBytes: a browser's FormData upload always has one), every file is a
 *   view of one buffer of that length, filled as the bytes arrive: no chunk list, no concatenation.
 *   A chunked body's file is joined from its chunks once it is complete;
 * - text fields are small: at most FIELD_MAX_BYTES each, MAX_PARTS parts in all.
 */
import busboy from "busboy";
import { AppError } from "@/core/errors";
import { type FormValue, type UploadedFile, UploadForm } from "@/lib/validation/upload-form";
import { DRAIN_MAX_BYTES, drainInBackground } from "./body";

/** The largest text field (not file) an upload may carry. */
export const FIELD_MAX_BYTES = 64 * 1024;
/** The most parts (fields and files) an upload may carry. */
export const MAX_PARTS = 32;

const formatBytes = (n: number) => n.toLocaleString("en-US");

const bad = (message: string, field = "body") => new AppError("bad_request", message, { fields: { [field]: message } });

function tooLarge(maxBytes: number, size?: number): AppError {
  const what = size === undefined ? "more than that" : `${formatBytes(size)} bytes`;
  return new AppError(
    "payload_too_large",
    `Request body too large: the limit is ${Math.round(maxBytes / 1024 / 1024)} MB (${formatBytes(maxBytes)} bytes); this one is ${what}`,
  );
}

/** The declared Content-Length, or null when the body is streamed without one (chunked). */
function declaredLength(request: Request): number | null {
  const header = request.headers.get("content-length");
  if (header === null) return null;
  if (!/^\d+$/.test(header.trim())) throw bad("Content-Length is not a number of bytes");
  return Number(header);
}

/**
 * Judges an upload on its headers, before any of its body is read: not multipart → 415; a
 * Content-Length over `maxBytes` → 413; an empty body → 400. A body without Content-Length is
 * allowed: readMultipart counts it.
 */
export function checkFormHeaders(request: Request, maxBytes: number): void {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "multipart/form-data") {
    throw new AppError("unsupported_media_type", "Request body must be multipart/form-data");
  }
  const declared = declaredLength(request);
  if (declared !== null && declared > maxBytes) throw tooLarge(maxBytes, declared);
  if (declared === 0 || !request.body) throw bad("Request body is required");
}

/**
 * Where the files' bytes go. With a declared length: one buffer of that length, of which each file
 * is a view (the files of a body never hold more bytes than the body). Without: each file's chunks,
 * joined when it ends.
 */
function fileStore(declared: number | null) {
  const arena = declared === null ? null : Buffer.allocUnsafe(declared);
  let used = 0;
  return {
    open() {
      const start = used;
      const chunks: Buffer[] = [];
      return {
        write(chunk: Buffer) {
          if (arena) used += chunk.copy(arena, used);
          else chunks.push(chunk);
        },
        bytes(): Uint8Array {
          return arena ? arena.subarray(start, used) : Buffer.concat(chunks);
        },
      };
    },
  };
}

/**
 * Reads a multipart/form-data body (checked by checkFormHeaders) into an UploadForm, reading no
 * more than `maxBytes` of it: 413 the moment the count passes it; a malformed body (no boundary,
 * a broken part header, a body that ends inside a part), a text field over FIELD_MAX_BYTES or
 * more than MAX_PARTS parts → 400.
 */
export async function readMultipart(request: Request, maxBytes: number): Promise<UploadForm> {
  const declared = declaredLength(request);
  if (!request.body) throw bad("Request body is required");
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": request.headers.get("content-type") ?? "" },
      defParamCharset: "utf8",
      limits: { fieldSize: FIELD_MAX_BYTES, parts: MAX_PARTS },
    });
  } catch {
    throw bad("Malformed multipart/form-data: the Content-Type has no boundary");
  }

  const entries: [string, FormValue][] = [];
  const store = fileStore(declared);
  let fail: (error: AppError) => void = () => {};
  // Settles when the parser has seen the whole form, or at the first refusal: whichever comes first.
  const parsed = new Promise<void>((resolve, reject) => {
    fail = reject;
    parser.on("field", (name, value, info) => {
      if (info.nameTruncated) fail(bad("A field name is too long"));
      else if (info.valueTruncated) {
        fail(bad(`form.${name}: Longer than ${formatBytes(FIELD_MAX_BYTES)} bytes`, `form.${name}`));
      } else entries.push([name, value]);
    });
    parser.on("file", (name, stream, info) => {
      const file = store.open();
      // In the form's order: the entry is its place, its bytes come when the part ends.
      const entry: UploadedFile = { filename: info.filename ?? "", type: info.mimeType, bytes: new Uint8Array(0) };
      entries.push([name, entry]);
      stream.on("data", (chunk: Buffer) => file.write(chunk));
      stream.on("end", () => {
        entry.bytes = file.bytes();
      });
      stream.on("error", () => {});
    });
    parser.on("partsLimit", () => fail(bad(`Malformed multipart/form-data: more than ${MAX_PARTS} parts`)));
    parser.on("error", (error: Error) => fail(bad(`Malformed multipart/form-data body: ${error.message}`)));
    parser.on("close", resolve);
  });
  parsed.catch(() => {});

  const reader = request.body.getReader();
  let size = 0;
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), parsed.then(() => null)]);
      // The parser finished before the body did: what follows the closing boundary is ignored.
      if (next === null || next.done) break;
      size += next.value.byteLength;
      if (size > maxBytes) throw tooLarge(maxBytes);
      if (declared !== null && size > declared) throw bad("The body is longer than its Content-Length");
      const chunk = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
      if (!parser.write(chunk)) await Promise.race([new Promise((resolve) => parser.once("drain", resolve)), parsed]);
    }
    parser.end();
    await parsed;
  } catch (error) {
    parser.destroy();
    drainInBackground(reader, DRAIN_MAX_BYTES);
    // Anything but our own refusals is the body's stream failing: the client went away mid-upload.
    throw error instanceof AppError ? error : bad("The upload was cut off: the connection closed before its end");
  }
  return new UploadForm(entries);
}
