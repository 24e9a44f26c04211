"use client";

import { HistoryIcon } from "lucide-react";
import { useState } from "react";
import { useDates } from "@/components/dates-provider";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import type { MemoryEvent } from "@/db/queries/memory-events";
import type { MemorySnapshot } from "@/db/schema";
import { api, errorMessage } from "@/lib/ui/api";
import { formatDateTime, withLocalDates } from "@/lib/ui/format";
import type { Jsonify } from "@/lib/ui/json";

type Event = Jsonify<MemoryEvent>;
type Loaded = { status: "loading" } | { status: "error"; message: string } | { status: "ready"; events: Event[] };

const FIELDS: (keyof MemorySnapshot)[] = ["title", "content", "type", "importance", "tags", "status", "pinned"];

function show(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (Array.isArray(value)) return value.length ? value.join(", ") : "—";
  return String(value);
}

/** A value as the user reads it: its ISO dates in their locale, as on the memory's card. */
function Shown({ value }: { value: unknown }) {
  return <>{withLocalDates(show(value), useDates())}</>;
}

/** What changed in one event: the fields whose value differs, before → after. */
function Changes({ event }: { event: Event }) {
  const before = (event.before ?? {}) as Record<string, unknown>;
  const after = (event.after ?? {}) as Record<string, unknown>;
  const changed = FIELDS.filter((field) => show(before[field]) !== show(after[field]));
  if (event.action === "create") {
    return (
      <p className="text-sm">
        <Shown value={after.content} />
      </p>
    );
  }
  if (changed.length === 0) return null;
  return (
    <dl className="space-y-1 text-sm">
      {changed.map((field) => (
        <div key={field} className="grid grid-cols-[5.5rem_1fr] gap-2">
          <dt className="text-muted-foreground">{field}</dt>
          <dd>
            <del className="text-muted-foreground">
              <Shown value={before[field]} />
            </del>{" "}
            →{" "}
            <ins className="no-underline">
              <Shown value={after[field]} />
            </ins>
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function HistoryDialog({ memoryId }: { memoryId: string }) {
  const [state, setState] = useState<Loaded>({ status: "loading" });
  const dates = useDates();

  const load = async () => {
    setState({ status: "loading" });
    try {
      const { events } = await api<{ events: Event[] }>(`/api/memories/${memoryId}/history`);
      setState({ status: "ready", events });
    } catch (error) {
      setState({ status: "error", message: errorMessage(error) });
    }
  };

  return (
    <Dialog onOpenChange={(open) => open && void load()}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="xs">
          <HistoryIcon aria-hidden="true" />
          <span className="max-sm:sr-only">History</span>
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Version history</DialogTitle>
          <DialogDescription>Every change to this memory, who made it and why — newest first.</DialogDescription>
        </DialogHeader>
        {state.status === "loading" && <p className="text-sm text-muted-foreground">Loading…</p>}
        {state.status === "error" && (
          <p role="alert" className="text-sm text-destructive">
            Could not load the history: {state.message}
          </p>
        )}
        {state.status === "ready" && (
          <ol className="space-y-3" aria-label="Changes">
            {state.events.map((event) => (
              <li key={event.id} className="rounded-lg border bg-surface p-3">
                <div className="mb-2 flex flex-wrap items-center gap-2 text-xs">
                  <Badge>{event.action}</Badge>
                  <span className="text-muted-foreground">
                    by {event.actor} · {formatDateTime(event.createdAt, dates)}
                  </span>
                </div>
                <Changes event={event} />
                {event.reason && <p className="mt-2 text-xs text-muted-foreground">Why: {event.reason}</p>}
              </li>
            ))}
          </ol>
        )}
      </DialogContent>
    </Dialog>
  );
}
