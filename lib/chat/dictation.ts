/**
 * Dictation: a recording becomes text for the composer, never sent before the user reviews it. The audio is never
 * stored; the call is recorded in `transcriptions` like every model call, and a message sent from it says so.
 */
import { APICallError, transcribe } from "ai";
import { AppError } from "@/core/errors";
import type { Logger } from "@/core/logger";
import { inSpan } from "@/core/telemetry";
import type { Db } from "@/db/client";
import {
  createTranscription,
  getTranscription,
  type Transcription,
  transcriptionUsed,
} from "@/db/queries/transcriptions";
import type { AiRegistry } from "@/lib/ai/registry";
import type { TranscribeUpload } from "@/lib/validation/transcribe";

export interface TranscriptionView {
  id: string;
  text: string;
  language: string | null;
  /** Seconds of audio: the model's count, else the browser's recording time. */
  durationSeconds: number | null;
  model: string;
}

/** whisper-1's verbose_json carries the language and duration; the gpt-4o transcribe models document json only. */
export function responseFormatFor(modelId: string): "verbose_json" | "json" {
  return modelId.startsWith("whisper") ? "verbose_json" : "json";
}

/** The 4xx/5xx of the transcription server, as the user should read it. */
function upstreamError(error: unknown): AppError {
  const status = APICallError.isInstance(error) ? error.statusCode : undefined;
  const detail = error instanceof Error ? error.message : String(error);
  return new AppError(
    "upstream:transcription",
    `The transcription service failed${status ? ` (HTTP ${status})` : ""}: ${detail.slice(0, 300)}`,
    { cause: error },
  );
}

export async function transcribeUpload(
  db: Db,
  ai: AiRegistry,
  input: { userId: string; upload: TranscribeUpload; log: Logger; signal?: AbortSignal },
): Promise<TranscriptionView> {
  const model = ai.getTranscriptionModel();
  if (!model) {
    throw new AppError(
      "forbidden:no_transcriber",
      "Dictation needs a transcription model: set OPENAI_API_KEY or OPENAI_BASE_URL",
    );
  }
  const { upload, log } = input;
  const audio = upload.file.bytes;
  const started = performance.now();
  const result = await inSpan(
    "dictation.transcribe",
    {
      "gen_ai.request.model": model.modelId,
      "gen_ai.system": model.provider,
      "lifeline.audio.bytes": audio.byteLength,
    },
    () =>
      transcribe({
        model,
        audio,
        // The AI SDK names the file's container from its bytes (webm, mp4, wav, ogg…).
        providerOptions: { openai: { responseFormat: responseFormatFor(model.modelId) } },
        maxRetries: 0,
        abortSignal: input.signal,
      }).catch((error: unknown) => {
        throw upstreamError(error);
      }),
  );
  const latencyMs = Math.round(performance.now() - started);
  const row = await createTranscription(db, {
    userId: input.userId,
    provider: model.provider,
    modelId: model.modelId,
    mediaType: upload.mediaType,
    bytes: audio.byteLength,
    audioSeconds: result.durationInSeconds ?? null,
    recordedMs: upload.durationMs,
    language: result.language ?? null,
    latencyMs,
    text: result.text,
  });
  log.info(
    { transcriptionId: row.id, model: model.modelId, bytes: audio.byteLength, latencyMs, chars: result.text.length },
    "dictation transcribed",
  );
  return toView(row);
}

function toView(row: Transcription): TranscriptionView {
  return {
    id: row.id,
    text: row.text,
    language: row.language,
    durationSeconds: row.audioSeconds ?? (row.recordedMs === null ? null : row.recordedMs / 1000),
    model: row.modelId,
  };
}

export interface DictationRecord {
  transcriptionId: string;
  provider: string;
  model: string;
  mediaType: string;
  bytes: number;
  audioSeconds: number | null;
  recordedMs: number | null;
  language: string | null;
  latencyMs: number;
  transcript: string;
  edited: boolean;
}

/** The transcription as a message's debug record keeps it: 404 when not the user's, 409 when already sent. */
export async function dictationRecord(
  db: Db,
  { userId, transcriptionId, text }: { userId: string; transcriptionId: string; text: string },
): Promise<DictationRecord> {
  const row = await getTranscription(db, { userId, transcriptionId });
  if (row.messageId !== null) throw transcriptionUsed();
  return {
    transcriptionId: row.id,
    provider: row.provider,
    model: row.modelId,
    mediaType: row.mediaType,
    bytes: row.bytes,
    audioSeconds: row.audioSeconds,
    recordedMs: row.recordedMs,
    language: row.language,
    latencyMs: row.latencyMs,
    transcript: row.text,
    edited: row.text.trim() !== text.trim(),
  };
}
