"use client";

import { BrainIcon, CircleOffIcon, SearchCodeIcon } from "lucide-react";
import { LogoMark } from "@/components/logo";

/**
 * The starters walk through what Lifeline does, and each is one the offline model answers (the
 * embedded default: it answers only from memories): tell it something, ask about it in another
 * chat, ask what it remembers. e2e/first-run.spec.ts sends each through the app and checks the answer.
 */
export const STARTERS = [
  { step: "Tell it something", text: "I'm vegetarian and allergic to peanuts" },
  { step: "Then, in a new chat, ask about it", text: "What should I avoid eating?" },
  { step: "See what it keeps", text: "What do you remember about me?" },
] as const;

export function EmptyChat({ memoryEnabled, onPick }: { memoryEnabled: boolean; onPick: (text: string) => void }) {
  return (
    <div className="flex flex-col items-center pt-2 text-center sm:pt-[10vh]">
      <LogoMark className="size-11 max-sm:hidden" />
      <h2 className="text-xl font-semibold tracking-tight sm:mt-4 sm:text-2xl">What’s on your mind?</h2>
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
      <ul className="mt-5 grid w-full max-w-2xl gap-2 sm:mt-8 sm:grid-cols-3" aria-label="Suggestions">
        {STARTERS.map(({ step, text }) => (
          <li key={text}>
            <button
              type="button"
              onClick={() => onPick(text)}
              className="flex h-full w-full flex-col gap-0.5 rounded-xl border bg-card px-4 py-2.5 text-left text-sm transition-colors hover:bg-accent sm:py-3"
            >
              <span className="text-xs text-muted-foreground">{step}</span>
              <span className="text-foreground/90">{text}</span>
            </button>
          </li>
        ))}
      </ul>
      <p className="mt-3 inline-flex max-w-2xl items-center gap-1.5 text-xs text-muted-foreground sm:mt-4">
        <SearchCodeIcon className="size-3.5 shrink-0" aria-hidden="true" />
        Under each answer, Inspect shows exactly what the model received, and why.
      </p>
    </div>
  );
}
