"use client";

import { ArrowUpIcon, SquareIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { MESSAGE_MAX_CHARS } from "@/core/config";

/** The message box: Enter sends, Shift+Enter adds a line; while answering, the button stops. */
export function Composer({
  busy,
  onSend,
  onStop,
  placeholder = "Message Lifeline",
}: {
  busy: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  placeholder?: string;
}) {
  const [text, setText] = useState("");
  const ref = useRef<HTMLTextAreaElement>(null);

  const resize = () => {
    const el = ref.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, 240)}px`;
  };

  // What was typed before hydration is in the DOM but not in state: keep it (Send then enables).
  // A new or opened chat is ready to type into, as in the peers' chats — where there is a fine
  // pointer: on a touch screen focusing the box would pop the keyboard up over the messages.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, at hydration
  useEffect(() => {
    const box = ref.current;
    const typed = box?.value;
    if (typed) {
      setText(typed);
      resize();
    }
    const active = document.activeElement;
    const typingElsewhere = active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement;
    if (box && !typingElsewhere && window.matchMedia("(pointer: fine)").matches) {
      box.focus({ preventScroll: true });
    }
  }, []);

  const send = () => {
    const value = text.trim();
    if (!value || busy) return;
    onSend(value);
    setText("");
    requestAnimationFrame(resize);
  };

  return (
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
      <textarea
        id="chat-input"
        ref={ref}
        rows={1}
        value={text}
        maxLength={MESSAGE_MAX_CHARS}
        placeholder={placeholder}
        onChange={(event) => {
          setText(event.target.value);
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
      {busy ? (
        <Button type="button" size="icon" className="rounded-full" onClick={onStop} aria-label="Stop answering">
          <SquareIcon className="fill-current" aria-hidden="true" />
        </Button>
      ) : (
        <Button type="submit" size="icon" className="rounded-full" disabled={!text.trim()} aria-label="Send message">
          <ArrowUpIcon aria-hidden="true" />
        </Button>
      )}
    </form>
  );
}
