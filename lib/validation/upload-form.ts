/**
 * What an upload carries once read (lib/api/multipart.ts reads it): its text fields and its files,
 * each file's bytes held once. The upload routes' parsers (lib/validation/transcribe.ts) judge it.
 */
export interface UploadedFile {
  /** The name the client gave the file (the part's `filename`). */
  filename: string;
  /** The part's media type without its parameters, as busboy reads it: "audio/webm" (text/plain when the part has none). */
  type: string;
  bytes: Uint8Array;
}

export type FormValue = string | UploadedFile;

/** A parsed upload: its text fields and files in the order they came, read like a FormData. */
export class UploadForm {
  constructor(private readonly entries: readonly (readonly [string, FormValue])[]) {}

  /** Each field name once, in order of first appearance. */
  keys(): string[] {
    return [...new Set(this.entries.map(([name]) => name))];
  }

  get(name: string): FormValue | null {
    return this.entries.find(([key]) => key === name)?.[1] ?? null;
  }

  getAll(name: string): FormValue[] {
    return this.entries.filter(([key]) => key === name).map(([, value]) => value);
  }
}
