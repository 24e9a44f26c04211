"use client";

import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from "react";
import type { ConversationPage, ListedConversation } from "@/db/queries/conversations";
import { api } from "@/lib/ui/api";
import type { Jsonify } from "@/lib/ui/json";

export type ConversationItem = Jsonify<ListedConversation>;
type Page = Jsonify<ConversationPage>;

interface ConversationsState {
  conversations: ConversationItem[];
  nextCursor: string | null;
  query: string;
  loading: boolean;
  /** The list failed to load (shown in the sidebar; never mistaken for "no chats"). */
  error: string | null;
  setQuery: (query: string) => void;
  /** Reloads the first page (after a chat was created, renamed, titled…). */
  refresh: () => Promise<void>;
  loadMore: () => Promise<void>;
  /** Applies a change locally (optimistic updates); `null` removes the conversation. */
  update: (id: string, change: Partial<ConversationItem> | null) => void;
}

const ConversationsContext = createContext<ConversationsState | null>(null);

function listUrl(query: string, cursor?: string | null): string {
  const params = new URLSearchParams({ limit: "30" });
  if (query) params.set("q", query);
  if (cursor) params.set("cursor", cursor);
  return `/api/conversations?${params}`;
}

export function ConversationsProvider({ initial, children }: { initial: Page; children: ReactNode }) {
  const [conversations, setConversations] = useState(initial.conversations);
  const [nextCursor, setNextCursor] = useState(initial.nextCursor);
  const [query, setQueryState] = useState("");
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const queryRef = useRef("");
  const requestRef = useRef(0);

  const load = useCallback(async (query: string) => {
    const request = ++requestRef.current;
    setLoading(true);
    try {
      const page = await api<Page>(listUrl(query));
      if (request !== requestRef.current) return;
      setConversations(page.conversations);
      setNextCursor(page.nextCursor);
      setError(null);
    } catch (cause) {
      if (request === requestRef.current) setError(cause instanceof Error ? cause.message : "Could not load chats.");
    } finally {
      if (request === requestRef.current) setLoading(false);
    }
  }, []);

  const value = useMemo<ConversationsState>(
    () => ({
      conversations,
      nextCursor,
      query,
      loading,
      error,
      setQuery: (next) => {
        queryRef.current = next;
        setQueryState(next);
        void load(next);
      },
      refresh: () => load(queryRef.current),
      loadMore: async () => {
        if (!nextCursor) return;
        const page = await api<Page>(listUrl(queryRef.current, nextCursor));
        setConversations((current) => [
          ...current,
          ...page.conversations.filter((c) => !current.some((existing) => existing.id === c.id)),
        ]);
        setNextCursor(page.nextCursor);
      },
      update: (id, change) =>
        setConversations((current) =>
          change === null
            ? current.filter((c) => c.id !== id)
            : current.map((c) => (c.id === id ? { ...c, ...change } : c)),
        ),
    }),
    [conversations, nextCursor, query, loading, error, load],
  );

  return <ConversationsContext.Provider value={value}>{children}</ConversationsContext.Provider>;
}

export function useConversations(): ConversationsState {
  const context = useContext(ConversationsContext);
  if (!context) throw new Error("useConversations must be used inside ConversationsProvider");
  return context;
}
