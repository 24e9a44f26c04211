/** A file whose bytes are not an audio container (checked on its signature, not its declared type) is a 415. */
import { fileTypeFromBuffer } from "file-type";
import { dictationConfig } from "@/core/config";
import { AppError } from "@/core/errors";
import type { UploadedFile, UploadForm } from "./upload-form";

export interface TranscribeUpload {
  /** The recording, as read from the body (lib/api/multipart.ts): the bytes the model gets. */
  file: UploadedFile;
  /** The file's type, lower-cased, without parameters (e.g. "audio/webm"). */
  mediaType: string;
  durationMs: number | null;
}

const FIELDS = new Set(["file", "durationMs"]);

function bad(field: string, message: string): AppError {
  return new AppError("bad_request", `form.${field}: ${message}`, { fields: { [`form.${field}`]: message } });
}

export function baseMediaType(type: string): string {
  return type.split(";")[0]?.trim().toLowerCase() ?? "";
}

export function isAudioType(type: string): boolean {
  return (dictationConfig.audioTypes as readonly string[]).includes(baseMediaType(type));
}

async function assertAudioContainer(file: UploadedFile): Promise<void> {
  const detected = await fileTypeFromBuffer(file.bytes);
  if (detected && (dictationConfig.audioContainers as readonly string[]).includes(detected.ext)) return;
  const found = detected ? `a ${detected.ext} file (${detected.mime})` : "no audio container";
  throw new AppError(
    "unsupported_media_type",
    `form.file: The recording's bytes are ${found}, not audio the transcriber reads (${dictationConfig.audioContainers.join(", ")})`,
    { fields: { "form.file": "Not an audio recording" } },
  );
}

export async function parseTranscribeForm(form: UploadForm): Promise<TranscribeUpload> {
  for (const name of new Set(form.keys())) {
    if (!FIELDS.has(name)) throw bad(name, "Unknown field");
    if (form.getAll(name).length > 1) throw bad(name, "Give it once");
  }
  const file = form.get("file");
  if (file === null) throw bad("file", "A recording is required");
  if (typeof file === "string") throw bad("file", "Must be a file, not text");
  if (file.bytes.byteLength === 0) throw bad("file", "The recording is empty");
  if (file.bytes.byteLength > dictationConfig.maxUploadBytes) {
    throw new AppError(
      "payload_too_large",
      `The recording is larger than ${dictationConfig.maxUploadBytes / 1024 / 1024} MB`,
    );
  }
  if (!isAudioType(file.type)) {
    throw new AppError(
      "unsupported_media_type",
      `form.file: ${file.type ? `"${baseMediaType(file.type)}" is not` : "The file has no type; it must be"} an audio type (${dictationConfig.audioTypes.join(", ")})`,
      { fields: { "form.file": "Not an audio type the transcriber reads" } },
    );
  }
  const rawDuration = form.get("durationMs");
  let durationMs: number | null = null;
  if (rawDuration !== null) {
    const maxMs = (dictationConfig.maxRecordingSeconds + 60) * 1000;
    if (typeof rawDuration !== "string" || !/^\d{1,9}$/.test(rawDuration) || Number(rawDuration) > maxMs) {
      throw bad("durationMs", `Must be a whole number of milliseconds up to ${maxMs}`);
    }
    durationMs = Number(rawDuration);
  }
  await assertAudioContainer(file);
  return { file, mediaType: file.type.trim().toLowerCase(), durationMs };
}
