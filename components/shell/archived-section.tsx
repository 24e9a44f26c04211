"use client";

import { ChevronRightIcon } from "lucide-react";
import { useState } from "react";
import { api, errorMessage } from "@/lib/ui/api";
import { cn } from "@/lib/ui/cn";
import { ConversationItemRow } from "./conversation-item";
import type { ConversationItem } from "./conversations-context";

type State =
  | { status: "closed" }
  | { status: "loading" }
  | { status: "error"; message: string }
  | { status: "open"; items: ConversationItem[] };

export function ArchivedSection({ activeId }: { activeId: string | null }) {
  const [state, setState] = useState<State>({ status: "closed" });
  const open = state.status !== "closed";

  const toggle = async () => {
    if (open) return setState({ status: "closed" });
    setState({ status: "loading" });
    try {
      const page = await api<{ conversations: ConversationItem[] }>("/api/conversations?archived=true&limit=100");
      setState({ status: "open", items: page.conversations });
    } catch (error) {
      setState({ status: "error", message: errorMessage(error) });
    }
  };

  return (
    <div className="mt-3">
      <button
        type="button"
        aria-expanded={open}
        aria-controls="archived-chats"
        onClick={() => void toggle()}
        className="flex w-full items-center gap-1 rounded-md px-2.5 py-1.5 text-xs font-medium text-muted-foreground hover:bg-accent hover:text-foreground"
      >
        <ChevronRightIcon className={cn("size-3.5 transition-transform", open && "rotate-90")} aria-hidden="true" />
        Archived
      </button>
      <div id="archived-chats">
        {state.status === "loading" && <p className="px-2.5 py-1.5 text-xs text-muted-foreground">Loading…</p>}
        {state.status === "error" && (
          <p role="alert" className="px-2.5 py-1.5 text-xs text-destructive">
            Could not load archived chats: {state.message}
          </p>
        )}
        {state.status === "open" &&
          (state.items.length === 0 ? (
            <p className="px-2.5 py-1.5 text-xs text-muted-foreground">No archived chats.</p>
          ) : (
            <ul className="space-y-px" aria-label="Archived chats">
              {state.items.map((conversation) => (
                <ConversationItemRow
                  key={conversation.id}
                  conversation={conversation}
                  active={conversation.id === activeId}
                  onChanged={(change) =>
                    setState({
                      status: "open",
                      items:
                        change === null
                          ? state.items.filter((c) => c.id !== conversation.id)
                          : state.items.map((c) => (c.id === conversation.id ? { ...c, ...change } : c)),
                    })
                  }
                />
              ))}
            </ul>
          ))}
      </div>
    </div>
  );
}
