"use client";

/**
 * Dictation in the composer (docs/chat.md § Dictation): the microphone button records with
 * MediaRecorder in whatever container the browser makes (webm/opus in Chromium and Firefox, mp4 in
 * Safari), shows the input level (a Web Audio AnalyserNode) and the time, and stops at
 * dictationConfig.maxRecordingSeconds. Stop sends the recording to POST /api/transcribe and hands
 * the transcript to the composer for review; Cancel throws it away. Nothing is sent to the chat.
 */
import { CheckIcon, LoaderCircleIcon, MicIcon, XIcon } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { useHydrated } from "@/components/use-hydrated";
import { dictationConfig } from "@/core/config";
import { ApiError } from "@/lib/ui/api";
import { clock, durationWords } from "@/lib/ui/format";

export interface Transcript {
  id: string;
  text: string;
}

type Phase = "idle" | "starting" | "recording" | "transcribing";

/** How many level bars the meter shows (the most recent levels, newest on the right). */
const BARS = 32;

/** What the user reads when recording cannot start. */
export function microphoneError(error: unknown): string {
  const name = error instanceof DOMException || error instanceof Error ? error.name : "";
  if (name === "NotAllowedError" || name === "SecurityError") {
    return "Microphone access is blocked. Allow the microphone for this site in your browser to dictate.";
  }
  if (name === "NotFoundError" || name === "OverconstrainedError") {
    return "No microphone was found. Connect one and try again.";
  }
  if (name === "NotReadableError") return "The microphone is in use by another app or could not be opened.";
  return "Recording could not start in this browser.";
}

interface Recording {
  stream: MediaStream;
  recorder: MediaRecorder;
  context: AudioContext;
  chunks: Blob[];
  startedAt: number;
  cancelled: boolean;
  frame: number;
  timer: ReturnType<typeof setInterval>;
}

export function useDictation(onTranscript: (transcript: Transcript) => void) {
  const [phase, setPhase] = useState<Phase>("idle");
  const [error, setError] = useState<string | null>(null);
  const [elapsed, setElapsed] = useState(0);
  const [levels, setLevels] = useState<number[]>(() => new Array(BARS).fill(0));
  const recording = useRef<Recording | null>(null);
  const onTranscriptRef = useRef(onTranscript);
  onTranscriptRef.current = onTranscript;

  const release = useCallback((r: Recording) => {
    cancelAnimationFrame(r.frame);
    clearInterval(r.timer);
    for (const track of r.stream.getTracks()) track.stop();
    void r.context.close().catch(() => {});
  }, []);

  const transcribe = useCallback(async (blob: Blob, durationMs: number) => {
    setPhase("transcribing");
    const form = new FormData();
    form.append("file", blob, `dictation.${blob.type.includes("mp4") ? "mp4" : "webm"}`);
    form.append("durationMs", String(Math.round(durationMs)));
    try {
      const res = await fetch("/api/transcribe", { method: "POST", body: form });
      const body = (await res.json().catch(() => undefined)) as
        | { transcription?: Transcript; error?: { code?: string; message?: string } }
        | undefined;
      if (!res.ok || !body?.transcription) {
        throw new ApiError(res.status, body?.error?.code ?? "internal", body?.error?.message ?? `HTTP ${res.status}`);
      }
      const text = body.transcription.text.trim();
      if (!text) setError("No speech was recognised in the recording.");
      else onTranscriptRef.current({ id: body.transcription.id, text });
    } catch (cause) {
      setError(
        cause instanceof ApiError
          ? `Could not transcribe: ${cause.message}`
          : "Could not reach the server to transcribe. Check your connection and try again.",
      );
    } finally {
      setPhase("idle");
    }
  }, []);

  /** Stop: the recording is transcribed. Cancel: it is thrown away. */
  const finish = useCallback((cancel: boolean) => {
    const r = recording.current;
    if (!r) return;
    r.cancelled = cancel;
    if (r.recorder.state !== "inactive") r.recorder.stop();
    if (cancel) setPhase("idle");
  }, []);

  const start = useCallback(async () => {
    if (recording.current) return;
    setError(null);
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === "undefined") {
      setError("This browser cannot record audio here (dictation needs a secure page: https or localhost).");
      return;
    }
    setPhase("starting");
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (cause) {
      setError(microphoneError(cause));
      setPhase("idle");
      return;
    }
    const recorder = new MediaRecorder(stream);
    const context = new AudioContext();
    const analyser = context.createAnalyser();
    analyser.fftSize = 1024;
    context.createMediaStreamSource(stream).connect(analyser);
    const samples = new Float32Array(analyser.fftSize);
    const r: Recording = {
      stream,
      recorder,
      context,
      chunks: [],
      startedAt: performance.now(),
      cancelled: false,
      frame: 0,
      timer: setInterval(() => {
        const seconds = (performance.now() - r.startedAt) / 1000;
        setElapsed(seconds);
        if (seconds >= dictationConfig.maxRecordingSeconds) finish(false);
      }, 200),
    };
    recording.current = r;
    let lastBar = 0;
    const sample = (now: number) => {
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const value of samples) sum += value * value;
      // RMS → 0..1, on a scale where speech fills most of the bar.
      const level = Math.min(1, Math.sqrt(sum / samples.length) * 4);
      if (now - lastBar > 80) {
        lastBar = now;
        setLevels((previous) => [...previous.slice(1), level]);
      }
      r.frame = requestAnimationFrame(sample);
    };
    r.frame = requestAnimationFrame(sample);
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) r.chunks.push(event.data);
    };
    recorder.onstop = () => {
      const durationMs = performance.now() - r.startedAt;
      release(r);
      recording.current = null;
      setLevels(new Array(BARS).fill(0));
      setElapsed(0);
      if (r.cancelled) return;
      const blob = new Blob(r.chunks, { type: recorder.mimeType || r.chunks[0]?.type || "audio/webm" });
      if (blob.size === 0) {
        setError("The recording is empty: no sound reached the browser.");
        setPhase("idle");
        return;
      }
      void transcribe(blob, durationMs);
    };
    recorder.start(250);
    setElapsed(0);
    setPhase("recording");
  }, [finish, release, transcribe]);

  // Leaving the page mid-recording stops the microphone.
  useEffect(
    () => () => {
      const r = recording.current;
      if (r) {
        r.cancelled = true;
        if (r.recorder.state !== "inactive") r.recorder.stop();
        release(r);
      }
    },
    [release],
  );

  return {
    phase,
    error,
    elapsed,
    levels,
    start: () => void start(),
    stop: () => finish(false),
    cancel: () => finish(true),
    dismissError: () => setError(null),
  };
}

export type Dictation = ReturnType<typeof useDictation>;

/** The microphone button (idle), or the spinner while the recording is transcribed. */
export function MicButton({ dictation, disabled }: { dictation: Dictation; disabled: boolean }) {
  // Server-rendered, the button would take a click before hydration and do nothing.
  const hydrated = useHydrated();
  if (dictation.phase === "transcribing") {
    return (
      <Button type="button" size="icon" variant="ghost" className="rounded-full" disabled aria-label="Transcribing">
        <LoaderCircleIcon className="animate-spin" aria-hidden="true" />
      </Button>
    );
  }
  return (
    <Button
      type="button"
      size="icon"
      variant="ghost"
      className="rounded-full text-muted-foreground hover:text-foreground"
      onClick={dictation.start}
      disabled={!hydrated || disabled || dictation.phase === "starting"}
      aria-label="Dictate"
      title={`Dictate (up to ${durationWords(dictationConfig.maxRecordingSeconds)})`}
    >
      <MicIcon aria-hidden="true" />
    </Button>
  );
}

export function RecordingBar({ dictation }: { dictation: Dictation }) {
  const max = dictationConfig.maxRecordingSeconds;
  const level = dictation.levels.at(-1) ?? 0;
  return (
    <fieldset className="m-0 flex min-h-10 min-w-0 flex-1 items-center gap-3 border-0 p-0 px-2" aria-label="Recording">
      <span className="relative flex size-2.5 shrink-0" aria-hidden="true">
        <span className="absolute inline-flex size-full animate-ping rounded-full bg-red-500 opacity-60" />
        <span className="relative inline-flex size-2.5 rounded-full bg-red-500" />
      </span>
      <meter className="sr-only" aria-label="Microphone level" min={0} max={100} value={Math.round(level * 100)} />
      <div
        aria-hidden="true"
        data-testid="level-meter"
        className="flex h-8 min-w-0 flex-1 items-center gap-[3px] overflow-hidden"
      >
        {dictation.levels.map((value, index) => (
          <span
            // biome-ignore lint/suspicious/noArrayIndexKey: fixed positions of a scrolling meter
            key={index}
            className="w-[3px] shrink-0 rounded-full bg-foreground/70"
            style={{ height: `${Math.max(8, Math.round(value * 100))}%` }}
          />
        ))}
      </div>
      <span className="shrink-0 text-sm tabular-nums text-muted-foreground">
        <span data-testid="recording-elapsed">{clock(dictation.elapsed)}</span> / {clock(max)}
      </span>
      <Button
        type="button"
        size="icon"
        variant="ghost"
        className="rounded-full"
        onClick={dictation.cancel}
        aria-label="Cancel recording"
      >
        <XIcon aria-hidden="true" />
      </Button>
      <Button
        type="button"
        size="icon"
        className="rounded-full"
        onClick={dictation.stop}
        aria-label="Stop and transcribe"
      >
        <CheckIcon aria-hidden="true" />
      </Button>
    </fieldset>
  );
}
