"use client";

import { CircleAlertIcon, PencilIcon, RotateCcwIcon } from "lucide-react";
import { useCallback, useState } from "react";
import { CopyButton } from "@/components/copy-button";
import { useDates } from "@/components/dates-provider";
import { LogoMark } from "@/components/logo";
import { Markdown } from "@/components/markdown";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { MESSAGE_MAX_CHARS } from "@/core/config";
import { AgentSteps } from "./agent-steps";
import { approvalsOf, MailApproval, type SendState } from "./mail-approval";
import { MessageMeta } from "./message-meta";
import { NotesButton } from "./notes-button";
import { RatingButtons } from "./rating-buttons";
import { ToolSteps } from "./tool-steps";
import { type ChatMessage, type MessageInfo, messageText } from "./types";
import { VersionStepper } from "./versions";

/** A message's versions control: "‹ 2 / 3 ›" where it has several, stepping while nothing streams. */
export interface VersionsProps {
  versions?: MessageInfo["versions"];
  onShowVersion?: (messageId: string) => void;
}

function Thinking() {
  return (
    <span className="inline-flex items-center gap-1 py-2">
      <span className="sr-only">Thinking…</span>
      {[0, 150, 300].map((delay) => (
        <span
          key={delay}
          className="size-1.5 animate-bounce rounded-full bg-muted-foreground/70"
          style={{ animationDelay: `${delay}ms` }}
        />
      ))}
    </span>
  );
}

/** A user message's inline editor: saving sends the new text as a new version of the message. */
function EditBox({
  initial,
  onSave,
  onCancel,
}: {
  initial: string;
  onSave: (text: string) => void;
  onCancel: () => void;
}) {
  const [value, setValue] = useState(initial);
  const text = value.trim();
  return (
    <form
      className="w-full max-w-[85%] space-y-2 rounded-2xl border bg-card p-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (text) onSave(text);
      }}
    >
      <label htmlFor="edit-message" className="sr-only">
        Edit your message
      </label>
      <textarea
        id="edit-message"
        // biome-ignore lint/a11y/noAutofocus: the editor opens on the user's click; typing goes where they asked
        autoFocus
        rows={3}
        value={value}
        maxLength={MESSAGE_MAX_CHARS}
        onChange={(event) => setValue(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") onCancel();
          if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            if (text) onSave(text);
          }
        }}
        className="w-full resize-y bg-transparent px-2 py-1.5 text-[15px] leading-6 outline-none"
      />
      <div className="flex justify-end gap-2">
        <Button type="button" variant="ghost" size="sm" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" size="sm" disabled={!text || text === initial.trim()}>
          Save and resend
        </Button>
      </div>
    </form>
  );
}

export function UserMessage({
  message,
  stored,
  onEdit,
  versions,
  onShowVersion,
  feedback = true,
}: {
  message: ChatMessage;
  stored: boolean;
  /** Notes; false in an imported chat, where the server refuses them. */
  feedback?: boolean;
  /** Present on a stored user message while nothing streams: edit and resend (a new version). */
  onEdit?: (text: string) => void;
} & VersionsProps) {
  const text = messageText(message);
  const [editing, setEditing] = useState(false);
  return (
    <div
      id={`message-${message.id}`}
      className="group/msg flex scroll-mt-4 flex-col items-end gap-1 rounded-xl transition-shadow duration-700 data-[linked=true]:ring-2 data-[linked=true]:ring-brand/60 data-[linked=true]:ring-offset-4 data-[linked=true]:ring-offset-background"
      data-testid="message-user"
    >
      {editing && onEdit ? (
        <EditBox
          initial={text}
          onCancel={() => setEditing(false)}
          onSave={(next) => {
            setEditing(false);
            onEdit(next);
          }}
        />
      ) : (
        <div className="max-w-[85%] rounded-2xl rounded-br-md bg-muted px-4 py-2.5 whitespace-pre-wrap break-words">
          {text}
        </div>
      )}
      <div className="-mt-0.5 flex items-center gap-0.5">
        {/* The versions stay visible (a fork is worth seeing); the other actions show on hover on desktop. */}
        {versions && (
          <VersionStepper versions={versions} disabled={!onShowVersion} onShow={(id) => onShowVersion?.(id)} />
        )}
        <div className="flex gap-0.5 opacity-100 transition-opacity md:opacity-0 md:group-focus-within/msg:opacity-100 md:group-hover/msg:opacity-100">
          <CopyButton text={() => text} label="Copy message" />
          {onEdit && !editing && (
            <Button
              variant="ghost"
              size="xs"
              className="text-muted-foreground hover:text-foreground"
              aria-label="Edit message"
              title="Edit and resend"
              onClick={() => setEditing(true)}
            >
              <PencilIcon aria-hidden="true" />
            </Button>
          )}
          {stored && feedback && <NotesButton messageId={message.id} />}
        </div>
      </div>
    </div>
  );
}

/** Why an answer that ended is not whole (messages.notice), as the chat says it. */
const NOTICES: Record<NonNullable<MessageInfo["notice"]>, string> = {
  length: "This answer was cut off: the model reached its output limit. Regenerate it, or ask for a shorter answer.",
  "content-filter": "This answer was cut off by the model provider's content filter.",
  refusal: "The model declined to answer this.",
  "no-finish": "This answer may be incomplete: the model's stream ended without saying it had finished.",
};

export function AssistantMessage({
  message,
  info,
  streaming,
  isNewest,
  onExtractionSettled,
  onRegenerate,
  failure,
  onRetry,
  mailboxNotice = false,
  onShowVersion,
  inspectExtractionOnly = false,
  feedback = true,
}: {
  message: ChatMessage;
  info: MessageInfo | undefined;
  streaming: boolean;
  isNewest: boolean;
  /** This answer carries the conversation's one demo-mailbox notice (mailboxNoticeAnswerId). */
  mailboxNotice?: boolean;
  onExtractionSettled: () => void;
  /** Present on a stored answer while nothing streams: answer again (a new version of the answer). */
  onRegenerate?: () => void;
  /**
   * The answer failed: one plain sentence (lib/chat/answer-error.ts), shown once, with Retry; the
   * provider's own text is in the Inspect view.
   */
  failure?: string;
  onRetry?: () => void;
  /** An imported answer: no debug record, its Inspect page shows the extraction. */
  inspectExtractionOnly?: boolean;
  /** Rating and notes; false for an imported answer (another assistant's), which the server refuses to rate. */
  feedback?: boolean;
} & Omit<VersionsProps, "versions">) {
  const text = messageText(message);
  const dates = useDates();
  // What each approval card shows now: the step line above it says the same (sent, declined, …).
  const [sends, setSends] = useState<Record<string, SendState>>({});
  const onSendState = useCallback(
    (operationId: string, state: SendState) => setSends((current) => ({ ...current, [operationId]: state })),
    [],
  );
  return (
    <div id={`message-${message.id}`} className="group/msg flex scroll-mt-4 gap-3" data-testid="message-assistant">
      <LogoMark className="mt-0.5 size-7" />
      <div className="min-w-0 flex-1 space-y-2">
        <ToolSteps message={message} />
        <AgentSteps message={message} mailboxNotice={mailboxNotice} sends={sends} />
        {text ? <Markdown dates={dates}>{text}</Markdown> : streaming ? <Thinking /> : null}
        {approvalsOf(message.parts).map((approval) => (
          <MailApproval key={approval.operationId} approval={approval} onState={onSendState} />
        ))}
        {info?.status === "aborted" && <Badge variant="outline">Stopped</Badge>}
        {info?.notice && (
          <p
            className="flex items-start gap-1.5 text-sm text-amber-800 dark:text-amber-300"
            data-testid="answer-notice"
          >
            <CircleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            {NOTICES[info.notice]}
          </p>
        )}
        {failure !== undefined && !streaming && (
          <div
            role="alert"
            className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border border-destructive/30 bg-red-50 px-3 py-2 text-sm text-red-900 dark:bg-red-950/40 dark:text-red-200"
            data-testid="answer-error"
          >
            <CircleAlertIcon className="size-4 shrink-0" aria-hidden="true" />
            <p className="min-w-0 flex-1">{failure}</p>
            {onRetry && (
              <Button variant="outline" size="xs" onClick={onRetry}>
                <RotateCcwIcon aria-hidden="true" />
                Retry
              </Button>
            )}
          </div>
        )}
        {/* The actions row and the metadata line keep their heights while the answer streams: nothing
            reflows when they fill in (the metadata line has its own row, so it never wraps under the buttons). */}
        <div className="flex flex-col gap-0.5" data-testid="message-footer">
          <div className="-ml-2 flex min-h-7 items-center gap-0.5">
            {!streaming && (
              <>
                {info?.versions && (
                  <VersionStepper
                    versions={info.versions}
                    disabled={!onShowVersion}
                    onShow={(id) => onShowVersion?.(id)}
                  />
                )}
                {text && <CopyButton text={() => text} label="Copy answer" />}
                {onRegenerate && (
                  <Button
                    variant="ghost"
                    size="xs"
                    className="text-muted-foreground hover:text-foreground"
                    aria-label="Regenerate answer"
                    title="Answer again (this answer stays as a version)"
                    onClick={onRegenerate}
                  >
                    <RotateCcwIcon aria-hidden="true" />
                  </Button>
                )}
                {feedback && info && failure === undefined && (
                  <RatingButtons messageId={message.id} initial={info.rating ?? null} />
                )}
                {feedback && info && <NotesButton messageId={message.id} />}
              </>
            )}
          </div>
          <div className="min-h-6">
            {!streaming && (
              <MessageMeta
                message={message}
                info={info}
                isNewest={isNewest}
                onExtractionSettled={onExtractionSettled}
                inspectExtractionOnly={inspectExtractionOnly}
              />
            )}
          </div>
        </div>
      </div>
    </div>
  );
}
