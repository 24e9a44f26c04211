"use client";

import { CircleAlertIcon, ListIcon, LoaderCircleIcon, SearchIcon } from "lucide-react";
import type { ChatMessage } from "./types";

/** A memory tool call of an answer, as useChat streams it and as the stored message keeps it. */
interface ToolStep {
  key: string;
  tool: "search_memories" | "list_memories";
  state: string;
  input: { query?: string; type?: string } | undefined;
  found: number | null;
  error: string | null;
}

const TOOL_PART = /^tool-(search_memories|list_memories)$/;

export function toolSteps(message: ChatMessage): ToolStep[] {
  return message.parts.flatMap((part, index): ToolStep[] => {
    const match = TOOL_PART.exec(part.type);
    if (!match) return [];
    const tool = match[1] as ToolStep["tool"];
    const p = part as { toolCallId?: string; state?: string; input?: unknown; output?: unknown; errorText?: string };
    const output = p.output as { memories?: unknown[] } | undefined;
    return [
      {
        key: p.toolCallId ?? String(index),
        tool,
        state: p.state ?? "",
        input: p.input as ToolStep["input"],
        found: Array.isArray(output?.memories) ? output.memories.length : null,
        error: p.state === "output-error" ? (p.errorText ?? "failed") : null,
      },
    ];
  });
}

function label(step: ToolStep): string {
  const what =
    step.tool === "search_memories"
      ? `Searched memories${step.input?.query ? ` for “${step.input.query}”` : ""}`
      : `Listed ${step.input?.type ? `${step.input.type} ` : ""}memories`;
  if (step.error) return `${what}: failed`;
  if (step.found === null) return step.tool === "search_memories" ? "Searching memories…" : "Listing memories…";
  return `${what}: ${step.found} found`;
}

/** One compact line per memory tool call ("Searched memories: 4 found"); the debug view has the details. */
export function ToolSteps({ message }: { message: ChatMessage }) {
  const steps = toolSteps(message);
  if (steps.length === 0) return null;
  return (
    <ul className="space-y-1" aria-label="Memory look-ups">
      {steps.map((step) => {
        const Icon = step.error
          ? CircleAlertIcon
          : step.found === null
            ? LoaderCircleIcon
            : step.tool === "search_memories"
              ? SearchIcon
              : ListIcon;
        return (
          <li
            key={step.key}
            className="inline-flex items-center gap-1.5 rounded-full border bg-muted/40 px-2.5 py-0.5 text-xs text-muted-foreground"
            data-testid="tool-step"
            title={step.error ?? undefined}
          >
            <Icon
              className={step.found === null && !step.error ? "size-3.5 animate-spin" : "size-3.5"}
              aria-hidden="true"
            />
            {label(step)}
          </li>
        );
      })}
    </ul>
  );
}
