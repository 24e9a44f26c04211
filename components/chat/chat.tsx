"use client";

import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport } from "ai";
import { ArrowDownIcon, CircleAlertIcon, RotateCcwIcon } from "lucide-react";
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import { useConversations } from "@/components/shell/conversations-context";
import { Button } from "@/components/ui/button";
import { DEFAULT_CONVERSATION_TITLE } from "@/core/config";
import type { ChatModelOption } from "@/lib/ai/registry";
import { answerErrorSentence } from "@/lib/chat/answer-error";
import { IMPORT_SOURCE_LABELS, type ImportSource } from "@/lib/import/types";
import { api, errorMessage } from "@/lib/ui/api";
import { mailboxNoticeAnswerId } from "./agent-steps";
import { ChatToolbar } from "./chat-toolbar";
import { Composer } from "./composer";
import { chatControls } from "./controls";
import { EmptyChat } from "./empty-chat";
import { AssistantMessage, UserMessage } from "./message";
import {
  type ChatMessage,
  type ChatSettings,
  fromTranscript,
  type MessageInfo,
  messageText,
  shownParentId,
  type TranscriptItem,
} from "./types";

export interface ChatProps {
  /** null on the new-chat page until the first answer starts. */
  conversation: {
    id: string;
    title: string;
    memoryEnabled: boolean;
    /** Imported from another assistant (Settings → Import): read-only, no composer. */
    importedFrom?: ImportSource | null;
  } | null;
  initialMessages: TranscriptItem[];
  models: ChatModelOption[];
  initialSettings: ChatSettings;
  /** Shown above the messages (the offline-model banner). */
  notice?: ReactNode;
  /** A transcriber is configured: the composer has a microphone (docs/chat.md § Dictation). */
  dictation?: boolean;
}

/**
 * Keeps the message list scrolled to the end while an answer streams, unless the reader scrolled up.
 * Opened at `#message-<id>` (a memory's source link), it shows that message instead — in the middle
 * of the list, briefly highlighted — on a client navigation as on a reload.
 */
function useStickToBottom(dependency: unknown) {
  const ref = useRef<HTMLDivElement>(null);
  const [atBottom, setAtBottom] = useState(true);
  const atBottomRef = useRef(true);
  const landedRef = useRef(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || dependency === undefined) return;
    if (!landedRef.current) {
      landedRef.current = true;
      const target = linkedMessage(el);
      if (target) {
        atBottomRef.current = false;
        setAtBottom(false);
        target.scrollIntoView({ block: "center" });
        target.dataset.linked = "true";
        window.setTimeout(() => delete target.dataset.linked, LINKED_HIGHLIGHT_MS);
        return;
      }
    }
    if (atBottomRef.current) el.scrollTop = el.scrollHeight;
  }, [dependency]);
  const onScroll = () => {
    const el = ref.current;
    if (!el) return;
    const near = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    atBottomRef.current = near;
    setAtBottom(near);
  };
  const scrollToBottom = () => ref.current?.scrollTo({ top: ref.current.scrollHeight, behavior: "smooth" });
  return { ref, atBottom, onScroll, scrollToBottom };
}

const LINKED_HIGHLIGHT_MS = 2500;

/** The message the URL's `#message-<id>` names, if it is in this list. */
function linkedMessage(list: HTMLElement): HTMLElement | null {
  const id = decodeURIComponent(window.location.hash.slice(1));
  if (!id.startsWith("message-")) return null;
  const target = document.getElementById(id);
  return target && list.contains(target) ? target : null;
}

const SYNC_ATTEMPTS = 10;
/** How many times (a second apart) the view looks for the automatic title after an answer. */
const TITLE_LOOKS = 10;

/**
 * The stored transcript is final once no answer is still streaming and the newest answer's
 * extraction row exists (it is queued just after the answer is saved; failed answers get none).
 */
function isSettled(stored: TranscriptItem[]): boolean {
  if (stored.some((m) => m.status === "streaming")) return false;
  const newest = stored.findLast((m) => m.role === "assistant");
  return !newest || newest.status === "error" || newest.extraction !== null;
}

export function Chat({ conversation, initialMessages, models, initialSettings, notice, dictation = false }: ChatProps) {
  const { conversations, refresh: refreshSidebar } = useConversations();
  const initial = useMemo(() => fromTranscript(initialMessages), [initialMessages]);
  const [infos, setInfos] = useState<Record<string, MessageInfo>>(initial.infos);
  const [settings, setSettings] = useState(initialSettings);
  const [memoryPending, setMemoryPending] = useState(false);
  const settingsRef = useRef(settings);
  settingsRef.current = settings;
  const conversationIdRef = useRef(conversation?.id ?? null);

  /** A new chat got its id: the URL becomes /chat/:id without interrupting the stream. */
  const adoptConversation = useCallback(
    (id: string) => {
      if (conversationIdRef.current) return;
      conversationIdRef.current = id;
      window.history.replaceState(null, "", `/chat/${id}`);
      void refreshSidebar();
    },
    [refreshSidebar],
  );

  const transport = useMemo(
    () =>
      new DefaultChatTransport<ChatMessage>({
        api: "/api/chat",
        fetch: async (input, init) => {
          const res = await fetch(input, init);
          const id = res.headers.get("x-conversation-id");
          if (res.ok && id) adoptConversation(id);
          return res;
        },
        prepareSendMessagesRequest: async ({ messages, trigger, messageId, body: extra }) => {
          const { model, mode, temperature, memoryEnabled } = settingsRef.current;
          // A new chat with memory off is created first, so its very first turn is already private.
          if (!conversationIdRef.current && !memoryEnabled) {
            const { conversation: created } = await api<{ conversation: { id: string } }>("/api/conversations", {
              json: { memoryEnabled: false, mode, model },
            });
            adoptConversation(created.id);
          }
          const conversationId = conversationIdRef.current;
          // Regenerate asks the same stored question again (a new version of that answer, no
          // duplicate question); sending with a messageId (an edit) sends a new version of that
          // user message. The old versions stay, one step away (docs/chat.md § Versions). A new
          // message names the answer it follows on screen, whatever version another tab made current.
          const parentMessageId = conversationId ? shownParentId(messages) : undefined;
          const target =
            conversationId && messageId
              ? trigger === "regenerate-message"
                ? { retryOf: messageId }
                : { editOf: messageId, message: messages.at(-1) }
              : { message: messages.at(-1), ...(parentMessageId ? { parentMessageId } : {}) };
          return {
            body: {
              conversationId: conversationId ?? undefined,
              ...target,
              model,
              mode,
              temperature,
              // A message sent from a dictated transcript names its transcription (the debug record says so).
              ...(typeof extra?.dictationId === "string" ? { dictationId: extra.dictationId } : {}),
            },
          };
        },
      }),
    [adoptConversation],
  );

  const { messages, sendMessage, status, stop, error, regenerate, setMessages, clearError } = useChat<ChatMessage>({
    id: conversation?.id,
    messages: initial.messages,
    transport,
    onFinish: () => void syncTranscript(),
  });

  /**
   * Each transcript load takes a number; a newer load or a new turn makes an older one stale, so a
   * slow reply can never put back the transcript as it was before a later answer.
   */
  const loadRef = useRef(0);
  /** Why the stored transcript could not be read after an answer: its controls wait for it (Load again). */
  const [syncFailure, setSyncFailure] = useState<string | null>(null);

  const applyTranscript = (stored: TranscriptItem[]) => {
    const next = fromTranscript(stored);
    setInfos(next.infos);
    setMessages(next.messages);
  };

  /**
   * After an answer (finished, stopped or failed), reload the stored transcript: message ids become
   * the stored ones, and each answer gets its debug summary and extraction status. An answer's
   * controls (regenerate, rating, Inspect) need its stored row, so the newest transcript read is
   * applied even when it is not yet settled or a later read fails; none at all says so.
   */
  const syncTranscript = async () => {
    const id = conversationIdRef.current;
    if (!id) return;
    const load = ++loadRef.current;
    setSyncFailure(null);
    let latest: TranscriptItem[] | null = null;
    let failure: unknown = null;
    for (let attempt = 0; attempt < SYNC_ATTEMPTS; attempt++) {
      try {
        const { messages: stored } = await api<{ messages: TranscriptItem[] }>(`/api/conversations/${id}/messages`);
        if (load !== loadRef.current) return;
        latest = stored;
        if (isSettled(stored)) break;
      } catch (cause) {
        if (load !== loadRef.current) return;
        failure = cause;
      }
      if (attempt < SYNC_ATTEMPTS - 1) await new Promise((resolve) => setTimeout(resolve, 400));
      if (load !== loadRef.current) return;
    }
    if (latest) {
      applyTranscript(latest);
      void refreshSidebar();
    } else setSyncFailure(errorMessage(failure));
  };

  // Titles are written after the answer, next to extraction: the sidebar's list picks up a new one.
  const onExtractionSettled = useCallback(() => void refreshSidebar(), [refreshSidebar]);
  const title = conversations.find((c) => c.id === conversationIdRef.current)?.title ?? conversation?.title ?? null;

  // The automatic title is written after the answer (next to extraction): until it arrives, look
  // again a few times, so a chat started from a suggestion is named without another message.
  const awaitingTitle =
    status === "ready" &&
    (title === null || title === DEFAULT_CONVERSATION_TITLE) &&
    messages.some((m) => m.role === "assistant" && m.id in infos);
  useEffect(() => {
    if (!awaitingTitle) return;
    let looks = 0;
    const timer = setInterval(() => {
      if (++looks >= TITLE_LOOKS) clearInterval(timer);
      void refreshSidebar();
    }, 1000);
    return () => clearInterval(timer);
  }, [awaitingTitle, refreshSidebar]);

  const setMemory = async (enabled: boolean) => {
    const id = conversationIdRef.current;
    setSettings((s) => ({ ...s, memoryEnabled: enabled }));
    if (!id) return; // applied when the chat is created
    setMemoryPending(true);
    try {
      await api(`/api/conversations/${id}`, { method: "PATCH", json: { memoryEnabled: enabled } });
      toast.success(enabled ? "Memory is on for this chat" : "Memory is off for this chat", {
        description: enabled
          ? "Answers use your memories, and new ones can be saved."
          : "Answers won't use your memories, and nothing said here will be saved.",
      });
    } catch (cause) {
      setSettings((s) => ({ ...s, memoryEnabled: !enabled }));
      toast.error(`Could not change memory: ${errorMessage(cause)}`);
    } finally {
      setMemoryPending(false);
    }
  };

  const busy = status === "submitted" || status === "streaming";
  useEffect(() => {
    if (!busy) return;
    loadRef.current++;
    setSyncFailure(null);
  }, [busy]);
  const lastMessage = messages.at(-1);
  const scroll = useStickToBottom(
    lastMessage
      ? `${messages.length}:${lastMessage.parts.length}:${JSON.stringify(lastMessage.parts).length}`
      : undefined,
  );
  const newestAssistantId = [...messages].reverse().find((m) => m.role === "assistant")?.id;
  const mailboxNoticeId = mailboxNoticeAnswerId(messages);
  /**
   * A failure is said once. An answer that failed says it on itself (its stored error as one plain
   * sentence, or the stream's error event, which is that sentence, until the transcript is synced);
   * the banner is for a request that failed with no answer to show it on (refused, unreachable).
   */
  const failureOf = (message: ChatMessage): string | undefined => {
    const info = infos[message.id];
    if (info?.status === "error") return answerErrorSentence(info.error);
    if (error && !busy && message.id === lastMessage?.id) return errorMessage(error);
    return undefined;
  };
  const failedMessage = error && lastMessage?.role !== "assistant" ? errorMessage(error) : null;

  const lastUser = messages.findLast((m) => m.role === "user");
  /** Any stored answer can be answered again, any stored user message edited, while nothing streams. */
  const isStored = (id: string | undefined) => !busy && id !== undefined && id in infos;
  const canRegenerate = lastMessage?.role === "assistant" && isStored(lastMessage.id);

  const regenerateAnswer = (messageId: string) => {
    clearError();
    void regenerate({ messageId });
  };

  const regenerateLatest = () => {
    clearError();
    if (canRegenerate && lastMessage) void regenerate({ messageId: lastMessage.id });
    // No stored answer (it never started): send the stored question again, as a version of itself.
    else if (lastUser && isStored(lastUser.id))
      void sendMessage({ text: messageText(lastUser), messageId: lastUser.id });
    else void regenerate();
  };

  const editMessage = (messageId: string, text: string) => {
    clearError();
    void sendMessage({ text, messageId });
  };

  /** Steps to another version: the server makes its branch current, then the chat shows that branch. */
  const [stepping, setStepping] = useState(false);
  const showVersion = async (messageId: string) => {
    const id = conversationIdRef.current;
    if (!id) return;
    setStepping(true);
    const load = ++loadRef.current;
    try {
      await api(`/api/conversations/${id}`, { method: "PATCH", json: { currentMessageId: messageId } });
      const { messages: stored } = await api<{ messages: TranscriptItem[] }>(`/api/conversations/${id}/messages`);
      if (load === loadRef.current) {
        applyTranscript(stored);
        setSyncFailure(null);
      }
    } catch (cause) {
      toast.error(`Could not show that version: ${errorMessage(cause)}`);
    } finally {
      setStepping(false);
    }
  };
  const onShowVersion = busy || stepping ? undefined : (messageId: string) => void showVersion(messageId);
  const controls = chatControls(conversation);

  return (
    // The chat fills the viewport (below the phone's top bar) and scrolls its messages itself.
    <div className="flex h-full flex-col">
      <ChatToolbar
        title={title}
        settings={settings}
        models={models}
        onChange={(patch) => setSettings((s) => ({ ...s, ...patch }))}
        onMemoryChange={(enabled) => void setMemory(enabled)}
        memoryPending={memoryPending}
        turnSettings={controls.turnSettings}
      />
      <div className="relative min-h-0 flex-1">
        <div ref={scroll.ref} onScroll={scroll.onScroll} className="relative h-full overflow-y-auto">
          <div className="mx-auto w-full max-w-3xl px-4 py-6 sm:px-6">
            {notice}
            {messages.length === 0 ? (
              <EmptyChat memoryEnabled={settings.memoryEnabled} onPick={(text) => void sendMessage({ text })} />
            ) : (
              <div role="log" aria-label="Messages" aria-busy={busy} className="space-y-6 pb-4">
                {messages.map((message) =>
                  message.role === "user" ? (
                    <UserMessage
                      key={message.id}
                      message={message}
                      stored={message.id in infos}
                      onEdit={
                        controls.edit && isStored(message.id) ? (text) => editMessage(message.id, text) : undefined
                      }
                      versions={infos[message.id]?.versions}
                      onShowVersion={onShowVersion}
                      feedback={controls.feedback}
                    />
                  ) : (
                    <AssistantMessage
                      key={message.id}
                      message={message}
                      info={infos[message.id]}
                      streaming={busy && message.id === lastMessage?.id}
                      isNewest={message.id === newestAssistantId}
                      onExtractionSettled={onExtractionSettled}
                      onRegenerate={
                        controls.regenerate && isStored(message.id) ? () => regenerateAnswer(message.id) : undefined
                      }
                      inspectExtractionOnly={controls.inspectExtractionOnly}
                      feedback={controls.feedback}
                      failure={failureOf(message)}
                      onRetry={controls.retry && message.id === lastMessage?.id && !busy ? regenerateLatest : undefined}
                      onShowVersion={onShowVersion}
                      mailboxNotice={message.id === mailboxNoticeId}
                    />
                  ),
                )}
                {status === "submitted" && lastMessage?.role === "user" && (
                  <AssistantMessage
                    message={{ id: "pending", role: "assistant", parts: [] }}
                    info={undefined}
                    streaming
                    isNewest={false}
                    onExtractionSettled={onExtractionSettled}
                  />
                )}
                {syncFailure && !busy && (
                  <div
                    role="alert"
                    className="flex flex-col gap-3 rounded-xl border p-3 text-sm text-muted-foreground sm:flex-row sm:items-center"
                    data-testid="transcript-sync-failure"
                  >
                    <CircleAlertIcon className="size-4 shrink-0" aria-hidden="true" />
                    <p className="flex-1">
                      The saved chat could not be loaded after this answer, so its details and actions are missing:{" "}
                      {syncFailure}
                    </p>
                    <Button variant="outline" size="sm" onClick={() => void syncTranscript()}>
                      <RotateCcwIcon aria-hidden="true" />
                      Load again
                    </Button>
                  </div>
                )}
                {failedMessage && !busy && (
                  <div
                    role="alert"
                    className="flex flex-col gap-3 rounded-xl border border-destructive/30 bg-red-50 p-4 text-sm text-red-900 sm:flex-row sm:items-center dark:bg-red-950/40 dark:text-red-200"
                  >
                    <CircleAlertIcon className="size-5 shrink-0" aria-hidden="true" />
                    <p className="flex-1">{failedMessage}</p>
                    <Button variant="outline" size="sm" onClick={regenerateLatest}>
                      <RotateCcwIcon aria-hidden="true" />
                      Retry
                    </Button>
                  </div>
                )}
              </div>
            )}
          </div>
        </div>
        {!scroll.atBottom && (
          <Button
            variant="outline"
            size="icon-sm"
            className="absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full shadow-md"
            onClick={scroll.scrollToBottom}
            aria-label="Scroll to the newest message"
          >
            <ArrowDownIcon aria-hidden="true" />
          </Button>
        )}
      </div>
      <div className="mx-auto w-full max-w-3xl shrink-0 px-3 pb-3 sm:px-6 sm:pb-4">
        {!settings.memoryEnabled && (
          <p className="mb-2 text-center text-xs text-muted-foreground">
            Memory is off for this chat: nothing is recalled or saved.
          </p>
        )}
        {!controls.composer && conversation?.importedFrom ? (
          <p
            className="rounded-lg border bg-muted/40 p-3 text-center text-sm text-muted-foreground"
            data-testid="imported-notice"
          >
            Imported from {IMPORT_SOURCE_LABELS[conversation.importedFrom]}: this conversation is read-only. Start a new
            chat to go on from it.
          </p>
        ) : (
          <Composer
            busy={busy}
            dictation={dictation}
            onSend={(text, dictationId) =>
              void sendMessage({ text }, dictationId ? { body: { dictationId } } : undefined)
            }
            onStop={() => void stop()}
          />
        )}
        <p className="sr-only" role="status" aria-live="polite">
          {status === "submitted"
            ? "Sending…"
            : status === "streaming"
              ? "Lifeline is answering…"
              : status === "error"
                ? "The answer failed."
                : ""}
        </p>
        {controls.composer && (
          <p className="mt-2 hidden text-center text-xs text-muted-foreground sm:block">
            Lifeline can be wrong. Every answer shows what it remembered — click “Inspect”.
          </p>
        )}
      </div>
    </div>
  );
}
