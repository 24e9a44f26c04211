"use client";

import { BrainIcon, CircleOffIcon } from "lucide-react";
import { LogoMark } from "@/components/logo";

const SUGGESTIONS = [
  "Help me plan a calm, productive week",
  "What do you remember about me?",
  "Give me three ideas for a weekend trip",
  "Explain a JavaScript closure with an example",
];

export function EmptyChat({ memoryEnabled, onPick }: { memoryEnabled: boolean; onPick: (text: string) => void }) {
  return (
    <div className="flex flex-col items-center pt-[12vh] text-center">
      <LogoMark className="size-11" />
      <h2 className="mt-4 text-2xl font-semibold tracking-tight">What’s on your mind?</h2>
      <p className="mt-2 inline-flex max-w-md items-center gap-1.5 text-sm text-muted-foreground">
        {memoryEnabled ? (
          <>
            <BrainIcon className="size-4 shrink-0" aria-hidden="true" />
            Lifeline remembers what matters — you can see, edit and delete every memory.
          </>
        ) : (
          <>
            <CircleOffIcon className="size-4 shrink-0" aria-hidden="true" />
            Memory is off: this chat won’t use or save memories.
          </>
        )}
      </p>
      <ul className="mt-8 grid w-full max-w-xl gap-2 sm:grid-cols-2" aria-label="Suggestions">
        {SUGGESTIONS.map((text) => (
          <li key={text}>
            <button
              type="button"
              onClick={() => onPick(text)}
              className="h-full w-full rounded-xl border bg-card px-4 py-3 text-left text-sm text-foreground/85 transition-colors hover:bg-accent hover:text-foreground"
            >
              {text}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
