import { dictationConfig } from "@/core/config";
import { route } from "@/lib/api/route";
import { transcribeUpload } from "@/lib/chat/dictation";
import { parseTranscribeForm } from "@/lib/validation/transcribe";

/** A long recording on a slow transcriber still fits (Vercel's default on every plan). */
export const maxDuration = 300;

/**
 * POST /api/transcribe (multipart/form-data: file, durationMs?) → {transcription: {id, text,
 * language, durationSeconds, model}}. Signed in, counted in the chat's rate limit; type and
 * Content-Length are checked before the body is read (≤ the API's 25 MB). The audio is not stored.
 * The text is for the composer: nothing is sent to the chat (docs/chat.md § Dictation).
 */
export const POST = route(
  { form: { maxBytes: dictationConfig.maxUploadBytes + 64 * 1024, parse: parseTranscribeForm }, rateLimit: "chat" },
  async ({ db, ai, userId, form, request, log }) => ({
    transcription: await transcribeUpload(db, ai, { userId, upload: form, log, signal: request.signal }),
  }),
);
