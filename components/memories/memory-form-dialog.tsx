"use client";

import { useRouter } from "next/navigation";
import { type ReactNode, useId, useState } from "react";
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
import { Input, Label, NativeSelect, Textarea } from "@/components/ui/input";
import type { MemoryType } from "@/db/schema";
import { ApiError, api, errorMessage } from "@/lib/ui/api";
import { MEMORY_TYPE_OPTIONS, TYPE_LABELS } from "./labels";

export interface EditableMemory {
  id: string;
  title: string | null;
  content: string;
  type: MemoryType;
  importance: number;
  tags: string[];
}

function parseTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(",")
        .map((tag) => tag.trim())
        .filter(Boolean),
    ),
  ];
}

/** Add a memory (POST) or edit one (PATCH: a changed text is re-embedded by the server). */
export function MemoryFormDialog({ memory, trigger }: { memory?: EditableMemory; trigger: ReactNode }) {
  const router = useRouter();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [importance, setImportance] = useState(memory?.importance ?? 0.5);

  const submit = async (form: FormData) => {
    const title = String(form.get("title") ?? "").trim();
    const body = {
      content: String(form.get("content") ?? "").trim(),
      type: String(form.get("type")) as MemoryType,
      importance,
      tags: parseTags(String(form.get("tags") ?? "")),
    };
    setPending(true);
    setFieldErrors({});
    try {
      if (memory) {
        await api(`/api/memories/${memory.id}`, { method: "PATCH", json: { ...body, title: title || null } });
        toast.success("Memory saved", {
          description: "Its text was re-embedded, so search and recall use the new version.",
        });
      } else {
        await api("/api/memories", { json: { ...body, ...(title ? { title } : {}) } });
        toast.success("Memory added");
      }
      setOpen(false);
      router.refresh();
    } catch (error) {
      if (error instanceof ApiError && error.fields) {
        setFieldErrors(Object.fromEntries(Object.entries(error.fields).map(([k, v]) => [k.replace(/^body\./, ""), v])));
      } else {
        toast.error(`Could not save: ${errorMessage(error)}`);
      }
    } finally {
      setPending(false);
    }
  };

  const error = (name: string) =>
    fieldErrors[name] ? (
      <p id={`${id}-${name}-error`} className="text-xs text-destructive">
        {fieldErrors[name]}
      </p>
    ) : null;

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{memory ? "Edit memory" : "Add a memory"}</DialogTitle>
          <DialogDescription>
            {memory
              ? "Changes are kept in the memory's history."
              : "Something Lifeline should know. It is used like any other memory."}
          </DialogDescription>
        </DialogHeader>
        <form action={submit} className="space-y-4">
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-title`}>Title</Label>
            <Input
              id={`${id}-title`}
              name="title"
              defaultValue={memory?.title ?? ""}
              maxLength={255}
              placeholder="Optional"
            />
            {error("title")}
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-content`}>Memory</Label>
            <Textarea
              id={`${id}-content`}
              name="content"
              required
              maxLength={2000}
              defaultValue={memory?.content ?? ""}
              aria-invalid={fieldErrors.content ? true : undefined}
              aria-describedby={fieldErrors.content ? `${id}-content-error` : undefined}
            />
            {error("content")}
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-type`}>Type</Label>
              <NativeSelect id={`${id}-type`} name="type" defaultValue={memory?.type ?? "personal"} className="w-full">
                {MEMORY_TYPE_OPTIONS.map((type) => (
                  <option key={type} value={type}>
                    {TYPE_LABELS[type]}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <div className="space-y-1.5">
              <div className="flex justify-between">
                <Label htmlFor={`${id}-importance`}>Importance</Label>
                <output htmlFor={`${id}-importance`} className="font-mono text-sm tabular-nums">
                  {importance.toFixed(2)}
                </output>
              </div>
              <input
                id={`${id}-importance`}
                type="range"
                min={0}
                max={1}
                step={0.05}
                value={importance}
                onChange={(event) => setImportance(Number(event.target.value))}
                className="h-9 w-full accent-brand"
              />
            </div>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-tags`}>Tags</Label>
            <Input
              id={`${id}-tags`}
              name="tags"
              defaultValue={memory?.tags.join(", ") ?? ""}
              placeholder="family, food"
            />
            <p className="text-xs text-muted-foreground">Separate tags with commas.</p>
            {error("tags")}
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? "Saving…" : memory ? "Save changes" : "Add memory"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
