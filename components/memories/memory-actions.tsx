"use client";

import { CheckIcon, PencilIcon, PinIcon, PinOffIcon, RotateCcwIcon, Trash2Icon, XIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { useHydrated } from "@/components/use-hydrated";
import type { MemoryStatus } from "@/db/schema";
import { api, errorMessage } from "@/lib/ui/api";
import { HistoryDialog } from "./history-dialog";
import { type EditableMemory, MemoryFormDialog } from "./memory-form-dialog";
import { usePinned } from "./pinned-state";

/**
 * The buttons of one memory card: confirm/discard a suggestion, edit, pin, history, delete (with
 * undo). Inside the card's PinnedState: pinning keeps the card where it is (pinned-state.tsx).
 */
export function MemoryActions({
  memory,
}: {
  memory: EditableMemory & { status: MemoryStatus; redactAt?: string | Date | null };
}) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  // Server-rendered, these buttons would take a click before hydration and do nothing.
  const hydrated = useHydrated();
  const busy = pending || !hydrated;
  const { pinned, setPinned } = usePinned();

  const togglePin = async () => {
    if (pending) return;
    const next = !pinned;
    setPending(true);
    try {
      await api(`/api/memories/${memory.id}`, { method: "PATCH", json: { pinned: next } });
      setPinned(next);
      toast.success(next ? "Pinned" : "Unpinned");
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setPending(false);
    }
  };

  const url = `/api/memories/${memory.id}`;
  const restore = () => api(`${url}/restore`, { method: "POST" });
  const deleteNow = () => api(`${url}?now=true`, { method: "DELETE" });
  const afterward = (action: () => Promise<unknown>, done: string, failed: string) => () =>
    void action()
      .then(() => {
        toast.success(done);
        router.refresh();
      })
      .catch((error) => toast.error(`${failed}: ${errorMessage(error)}`));

  /**
   * `undo`: the toast offers Undo and, for a delete whose undo window keeps the memory's text in
   * the records made from it, "Delete now" (docs/retrieval.md#deleting-a-memory).
   */
  const run = async (action: () => Promise<unknown>, success: string, undo?: () => Promise<unknown>) => {
    setPending(true);
    try {
      await action();
      router.refresh();
      toast.success(success, {
        duration: undo ? 10_000 : undefined,
        description: undo ? "Undo within a minute restores it everywhere." : undefined,
        action: undo ? { label: "Undo", onClick: afterward(undo, "Restored", "Could not undo") } : undefined,
        cancel: undo
          ? { label: "Delete now", onClick: afterward(deleteNow, "Deleted for good", "Could not delete now") }
          : undefined,
      });
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setPending(false);
    }
  };

  if (memory.status === "deleted") {
    return (
      <div className="flex flex-wrap items-center gap-1">
        <Button variant="outline" size="xs" disabled={busy} onClick={() => void run(restore, "Memory restored")}>
          <RotateCcwIcon aria-hidden="true" />
          Restore
        </Button>
        {memory.redactAt && (
          <Button
            variant="ghost"
            size="xs"
            className="text-destructive hover:text-destructive"
            disabled={busy}
            title="Its text stays in the records of past answers for a minute after the delete, so that Undo restores everything"
            onClick={() => void run(deleteNow, "Deleted for good")}
          >
            <Trash2Icon aria-hidden="true" />
            Delete now
          </Button>
        )}
      </div>
    );
  }

  return (
    <div className="flex flex-wrap items-center justify-end gap-0.5">
      {memory.status === "pending_confirmation" && (
        <>
          <Button
            size="xs"
            disabled={busy}
            onClick={() =>
              void run(() => api(`${url}/confirm`, { method: "POST" }), "Memory confirmed — chats can recall it now")
            }
          >
            <CheckIcon aria-hidden="true" />
            Confirm
          </Button>
          <Button
            variant="outline"
            size="xs"
            disabled={busy}
            onClick={() => void run(() => api(`${url}/discard`, { method: "POST" }), "Suggestion discarded", restore)}
          >
            <XIcon aria-hidden="true" />
            Discard
          </Button>
        </>
      )}
      <MemoryFormDialog
        memory={memory}
        trigger={
          <Button variant="ghost" size="xs" aria-label={`Edit memory: ${memory.title ?? memory.content}`}>
            <PencilIcon aria-hidden="true" />
            <span className="max-sm:sr-only">Edit</span>
          </Button>
        }
      />
      <Button
        variant="ghost"
        size="xs"
        // Not disabled while the request runs: a disabled button drops the keyboard's focus.
        disabled={!hydrated}
        aria-busy={pending}
        aria-pressed={pinned}
        title={pinned ? "Stop keeping it in every chat" : "Keep it in every chat, whatever you ask"}
        onClick={() => void togglePin()}
      >
        {pinned ? <PinOffIcon aria-hidden="true" /> : <PinIcon aria-hidden="true" />}
        <span className="max-sm:sr-only">{pinned ? "Unpin" : "Pin"}</span>
      </Button>
      <HistoryDialog memoryId={memory.id} />
      <Button
        variant="ghost"
        size="xs"
        className="text-destructive hover:text-destructive"
        disabled={busy}
        aria-label={`Delete memory: ${memory.title ?? memory.content}`}
        onClick={() => void run(() => api(url, { method: "DELETE" }), "Memory deleted", restore)}
      >
        <Trash2Icon aria-hidden="true" />
        <span className="max-sm:sr-only">Delete</span>
      </Button>
    </div>
  );
}
