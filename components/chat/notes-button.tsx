"use client";

import { StickyNoteIcon, Trash2Icon } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { useDates } from "@/components/dates-provider";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/input";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { api, errorMessage } from "@/lib/ui/api";
import { formatDateTime } from "@/lib/ui/format";

interface Note {
  id: string;
  content: string;
  createdAt: string;
}

type Loaded =
  | { status: "idle" | "loading" }
  | { status: "error"; message: string }
  | { status: "ready"; notes: Note[] };

export function NotesButton({ messageId }: { messageId: string }) {
  const [state, setState] = useState<Loaded>({ status: "idle" });
  const dates = useDates();
  const [draft, setDraft] = useState("");
  const [saving, setSaving] = useState(false);
  const notes = state.status === "ready" ? state.notes : [];

  const load = async () => {
    setState({ status: "loading" });
    try {
      const body = await api<{ notes: Note[] }>(`/api/messages/${messageId}/notes`);
      setState({ status: "ready", notes: body.notes });
    } catch (error) {
      setState({ status: "error", message: errorMessage(error) });
    }
  };

  const add = async () => {
    const content = draft.trim();
    if (!content) return;
    setSaving(true);
    try {
      const { note } = await api<{ note: Note }>(`/api/messages/${messageId}/notes`, { json: { content } });
      setState({ status: "ready", notes: [...notes, note] });
      setDraft("");
    } catch (error) {
      toast.error(`Could not save the note: ${errorMessage(error)}`);
    } finally {
      setSaving(false);
    }
  };

  const remove = async (noteId: string) => {
    try {
      await api(`/api/notes/${noteId}`, { method: "DELETE" });
      setState({ status: "ready", notes: notes.filter((n) => n.id !== noteId) });
    } catch (error) {
      toast.error(`Could not delete the note: ${errorMessage(error)}`);
    }
  };

  return (
    <Popover onOpenChange={(open) => open && void load()}>
      <PopoverTrigger asChild>
        <Button
          variant="ghost"
          size="xs"
          className="text-muted-foreground hover:text-foreground"
          aria-label="Notes"
          title="Notes"
        >
          <StickyNoteIcon aria-hidden="true" />
        </Button>
      </PopoverTrigger>
      <PopoverContent aria-label="Notes on this message">
        <h3 className="text-sm font-semibold">Notes</h3>
        <p className="mb-3 text-xs text-muted-foreground">Private to you; never sent to the model.</p>
        {state.status === "loading" && <p className="text-sm text-muted-foreground">Loading…</p>}
        {state.status === "error" && (
          <p role="alert" className="text-sm text-destructive">
            Could not load notes: {state.message}
          </p>
        )}
        {state.status === "ready" && notes.length === 0 && (
          <p className="text-sm text-muted-foreground">No notes yet.</p>
        )}
        {notes.length > 0 && (
          <ul className="mb-3 max-h-56 space-y-2 overflow-y-auto">
            {notes.map((note) => (
              <li key={note.id} className="group/note rounded-lg bg-muted px-3 py-2 text-sm">
                <p className="whitespace-pre-wrap">{note.content}</p>
                <div className="mt-1 flex items-center justify-between text-xs text-muted-foreground">
                  <time dateTime={note.createdAt}>{formatDateTime(note.createdAt, dates)}</time>
                  <button
                    type="button"
                    onClick={() => void remove(note.id)}
                    className="rounded p-0.5 hover:text-destructive"
                    aria-label="Delete note"
                  >
                    <Trash2Icon className="size-3.5" aria-hidden="true" />
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
        <form
          className="mt-3 space-y-2"
          onSubmit={(event) => {
            event.preventDefault();
            void add();
          }}
        >
          <Textarea
            aria-label="New note"
            placeholder="Add a note…"
            value={draft}
            maxLength={10_000}
            onChange={(event) => setDraft(event.target.value)}
            className="min-h-16 text-sm"
          />
          <Button type="submit" size="sm" disabled={saving || !draft.trim()}>
            {saving ? "Saving…" : "Add note"}
          </Button>
        </form>
      </PopoverContent>
    </Popover>
  );
}
