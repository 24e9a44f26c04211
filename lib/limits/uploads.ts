/**
 * The bound on uploads one server process reads at once (dictationConfig.maxConcurrentUploads):
 * each is held in memory, whole (one buffer: lib/api/multipart.ts), until its handler returns, so
 * twenty parallel 25 MB uploads would otherwise hold half a gigabyte. Per process, not shared: it
 * bounds this process's memory. Over it, a 503 with Retry-After, before the body is read.
 */
import { dictationConfig } from "@/core/config";
import { AppError } from "@/core/errors";

let inFlight = 0;

/** Takes a slot, or throws the 503; the returned function gives it back (once, however often called). */
export function takeUploadSlot(max: number = dictationConfig.maxConcurrentUploads): () => void {
  if (inFlight >= max) {
    throw new AppError(
      "unavailable:uploads",
      `This server is reading ${max} uploads already — try again in a few seconds`,
      { retryAfter: 5 },
    );
  }
  inFlight++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    inFlight--;
  };
}

/** Uploads being read or handled now. */
export function uploadsInFlight(): number {
  return inFlight;
}
