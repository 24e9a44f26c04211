"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { toast } from "sonner";
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
import { Input } from "@/components/ui/input";
import { api, errorMessage } from "@/lib/ui/api";

const PHRASE = "delete all";

/** Erases every memory after the user types the confirmation phrase (no undo). */
export function DeleteAllDialog() {
  const router = useRouter();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [pending, setPending] = useState(false);

  const erase = async () => {
    setPending(true);
    try {
      const { deleted } = await api<{ deleted: number }>("/api/memories", {
        method: "DELETE",
        json: { confirm: PHRASE },
      });
      toast.success(`Deleted ${deleted} ${deleted === 1 ? "memory" : "memories"}`);
      setOpen(false);
      setTyped("");
      router.refresh();
    } catch (error) {
      toast.error(`Could not delete: ${errorMessage(error)}`);
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" className="text-destructive hover:text-destructive">
          Delete all
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Delete every memory?</DialogTitle>
          <DialogDescription>
            This erases all memories and their history for good — it cannot be undone. Consider exporting them first.
          </DialogDescription>
        </DialogHeader>
        <div className="space-y-1.5">
          <label htmlFor={id} className="text-sm">
            Type <strong className="font-mono">{PHRASE}</strong> to confirm
          </label>
          <Input id={id} value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" />
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button variant="destructive" disabled={typed !== PHRASE || pending} onClick={() => void erase()}>
            {pending ? "Deleting…" : "Delete all memories"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
