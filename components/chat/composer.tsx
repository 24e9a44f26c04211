"use client";

import { ArrowUpIcon, CircleAlertIcon, SquareIcon, XIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { useHydrated } from "@/components/use-hydrated";
import { dictationConfig, MESSAGE_MAX_CHARS } from "@/core/config";
import { durationWords } from "@/lib/ui/format";
import { MicButton, RecordingBar, type Transcript, useDictation } from "./dictation";

/**
 * The message box: Enter sends, Shift+Enter adds a line; while answering, the button stops. With
 * `dictation` (a transcriber is configured), a microphone button records; the transcript lands in
 * the box for review, and the message sent from it carries the transcription's id.
 */
export function Composer({
  busy,
  onSend,
  onStop,
  dictation: dictationEnabled = false,
  placeholder = "Message Lifeline",
}: {
  busy: boolean;
  onSend: (text: string, dictationId?: string) => void;
  onStop: () => void;
  dictation?: boolean;
  placeholder?: string;
}) {
  const [text, setText] = useState("");
  const ref = useRef<HTMLTextAreaElement>(null);
  // The transcription the box's text came from, until it is sent or the box is emptied.
  const [dictationId, setDictationId] = useState<string | null>(null);
  const dictation = useDictation((transcript: Transcript) => {
    setText((current) => (current.trim() ? `${current.trimEnd()} ${transcript.text}` : transcript.text));
    setDictationId(transcript.id);
    requestAnimationFrame(() => {
      resize();
      ref.current?.focus();
    });
  });
  const recording = dictation.phase === "recording" || dictation.phase === "starting";

  const resize = () => {
    const el = ref.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, 240)}px`;
  };

  // Server-rendered, the box would take typing that its state never sees (Send stays disabled): it
  // is read-only until hydrated, so what a user (or a test) types lands once it can be sent.
  const hydrated = useHydrated();
  // A new or opened chat is ready to type into, as in the peers' chats — where there is a fine
  // pointer: on a touch screen focusing the box would pop the keyboard up over the messages.
  useEffect(() => {
    const box = ref.current;
    const active = document.activeElement;
    const typingElsewhere = active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement;
    if (box && !typingElsewhere && window.matchMedia("(pointer: fine)").matches) {
      box.focus({ preventScroll: true });
    }
  }, []);

  const send = () => {
    const value = text.trim();
    if (!value || busy || recording) return;
    onSend(value, dictationId ?? undefined);
    setText("");
    setDictationId(null);
    requestAnimationFrame(resize);
  };

  return (
    <div>
      {dictation.error && (
        <div
          role="alert"
          className="mb-2 flex items-start gap-2 rounded-xl border border-destructive/30 bg-red-50 px-3 py-2 text-sm text-red-900 dark:bg-red-950/40 dark:text-red-200"
        >
          <CircleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <p className="flex-1">{dictation.error}</p>
          <button
            type="button"
            onClick={dictation.dismissError}
            aria-label="Dismiss"
            className="shrink-0 opacity-70 hover:opacity-100"
          >
            <XIcon className="size-4" aria-hidden="true" />
          </button>
        </div>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
        className="relative flex items-end gap-2 rounded-2xl border bg-card p-2 shadow-sm transition-shadow focus-within:border-ring/60 focus-within:ring-2 focus-within:ring-ring/15"
      >
        <label htmlFor="chat-input" className="sr-only">
          Message
        </label>
        {recording && <RecordingBar dictation={dictation} />}
        <textarea
          hidden={recording}
          id="chat-input"
          ref={ref}
          rows={1}
          readOnly={!hydrated}
          value={text}
          maxLength={MESSAGE_MAX_CHARS}
          placeholder={placeholder}
          onChange={(event) => {
            setText(event.target.value);
            if (!event.target.value.trim()) setDictationId(null);
            resize();
          }}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              send();
            }
          }}
          className="max-h-60 min-h-10 flex-1 resize-none bg-transparent px-2 py-2 text-[15px] leading-6 outline-none placeholder:text-muted-foreground"
        />
        {dictationEnabled && !recording && <MicButton dictation={dictation} disabled={false} />}
        {recording ? null : busy ? (
          <Button type="button" size="icon" className="rounded-full" onClick={onStop} aria-label="Stop answering">
            <SquareIcon className="fill-current" aria-hidden="true" />
          </Button>
        ) : (
          <Button type="submit" size="icon" className="rounded-full" disabled={!text.trim()} aria-label="Send message">
            <ArrowUpIcon aria-hidden="true" />
          </Button>
        )}
      </form>
      {recording && (
        <p className="mt-2 text-center text-xs text-muted-foreground">
          Recording stops by itself after {durationWords(dictationConfig.maxRecordingSeconds)}. ✓ transcribes into the
          message box for you to review; ✕ discards it.
        </p>
      )}
    </div>
  );
}
