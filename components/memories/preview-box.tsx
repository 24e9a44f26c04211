"use client";

import { ScanSearchIcon } from "lucide-react";
import { useId, useState } from "react";
import { CandidateTable } from "@/components/debug/candidate-table";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { MESSAGE_MAX_CHARS } from "@/core/config";
import type { ContextTrace } from "@/lib/memory/retrieval/trace";
import { api, errorMessage } from "@/lib/ui/api";

type State =
  | { status: "idle" }
  | { status: "loading" }
  | { status: "error"; message: string }
  | { status: "ready"; message: string; trace: ContextTrace };

/** "What would Lifeline remember for…": a dry run of context assembly (POST /api/memories/preview). */
export function PreviewBox() {
  const id = useId();
  const [state, setState] = useState<State>({ status: "idle" });

  const preview = async (form: FormData) => {
    const message = String(form.get("message") ?? "").trim();
    if (!message) return;
    setState({ status: "loading" });
    try {
      const { trace } = await api<{ trace: ContextTrace }>("/api/memories/preview", { json: { message } });
      setState({ status: "ready", message, trace });
    } catch (error) {
      setState({ status: "error", message: errorMessage(error) });
    }
  };

  return (
    <div className="space-y-4">
      <form action={preview} className="flex gap-2">
        <label htmlFor={id} className="sr-only">
          A message to try
        </label>
        <Input
          id={id}
          name="message"
          placeholder="e.g. What should I cook tonight?"
          maxLength={MESSAGE_MAX_CHARS}
          required
        />
        <Button type="submit" variant="secondary" disabled={state.status === "loading"}>
          <ScanSearchIcon aria-hidden="true" />
          {state.status === "loading" ? "Looking…" : "Preview"}
        </Button>
      </form>
      <div aria-live="polite">
        {state.status === "error" && (
          <p role="alert" className="text-sm text-destructive">
            Could not preview: {state.message}
          </p>
        )}
        {state.status === "ready" && <PreviewResult trace={state.trace} message={state.message} />}
      </div>
    </div>
  );
}

function PreviewResult({ trace, message }: { trace: ContextTrace; message: string }) {
  return (
    <div className="space-y-4" data-testid="preview-result">
      {trace.status === "failed" ? (
        <p role="alert" className="text-sm text-destructive">
          Retrieval failed ({trace.error}). A chat turn would get no memory section — not the same as “nothing found”.
        </p>
      ) : (
        <div>
          <h3 className="mb-2 text-sm font-medium">
            For “{message}”, the prompt would include{" "}
            {trace.memoryLines.length === 0 ? "no memory lines" : "these lines"}:
          </h3>
          {trace.memoryLines.length > 0 && (
            <ul className="space-y-1 rounded-lg border bg-surface p-3 font-mono text-[12.5px]">
              {trace.memoryLines.map((line) => (
                <li key={line} className="rounded bg-highlight px-2 py-0.5">
                  {line}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <CandidateTable trace={trace} />
    </div>
  );
}
