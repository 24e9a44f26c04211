"use client";

import { ClipboardCopyIcon } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";

type Handout = { state: "loading" } | { state: "ready"; text: string; count: number } | { state: "error" };

/**
 * "Copy for another assistant": the active memories as plain text (GET /api/memories/export?format=text),
 * shown before it is copied, so the user sees exactly what they hand over.
 */
export function HandoutDialog() {
  const id = useId();
  const [handout, setHandout] = useState<Handout>({ state: "loading" });
  const [copied, setCopied] = useState<"no" | "yes" | "refused">("no");

  const load = async () => {
    setHandout({ state: "loading" });
    setCopied("no");
    try {
      const res = await fetch("/api/memories/export?format=text", { cache: "no-store" });
      if (!res.ok) throw new Error(String(res.status));
      setHandout({ state: "ready", text: await res.text(), count: Number(res.headers.get("x-memory-count") ?? 0) });
    } catch {
      setHandout({ state: "error" });
    }
  };

  // The clipboard is refused outside a secure context (http on another host) or without permission:
  // then the text stays selected for the user to copy by hand.
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied("yes");
    } catch {
      setCopied("refused");
      const area = document.getElementById(id);
      if (area instanceof HTMLTextAreaElement) area.select();
    }
  };

  return (
    <Dialog onOpenChange={(open) => open && void load()}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" data-testid="handout-open">
          <ClipboardCopyIcon aria-hidden="true" />
          <span className="max-sm:sr-only">Copy for another assistant</span>
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>Copy for another assistant</DialogTitle>
          <DialogDescription>
            Your active memories as plain text, to paste into Claude's memory import or ChatGPT's custom instructions.
            Memories waiting for your confirmation are left out.
          </DialogDescription>
        </DialogHeader>
        {handout.state === "loading" && <p className="text-sm text-muted-foreground">Loading…</p>}
        {handout.state === "error" && (
          <p role="alert" className="text-sm text-destructive">
            Could not load your memories. Close this and try again.
          </p>
        )}
        {handout.state === "ready" &&
          (handout.count === 0 ? (
            <p className="text-sm text-muted-foreground" data-testid="handout-empty">
              There is nothing to copy yet: you have no active memories.
            </p>
          ) : (
            <textarea
              id={id}
              readOnly
              aria-label="Text to copy"
              data-testid="handout-text"
              value={handout.text}
              className="h-64 w-full resize-none rounded-md border bg-muted/40 p-3 font-mono text-xs"
            />
          ))}
        <DialogFooter>
          {copied !== "no" && handout.state === "ready" && (
            <p role="status" className="mr-auto self-center text-sm text-muted-foreground" data-testid="handout-copied">
              {copied === "yes"
                ? `Copied ${handout.count} ${handout.count === 1 ? "memory" : "memories"}`
                : "This browser did not allow copying: the text is selected, copy it with your keyboard."}
            </p>
          )}
          <Button
            disabled={handout.state !== "ready" || handout.count === 0}
            onClick={() => handout.state === "ready" && void copy(handout.text)}
          >
            Copy
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
