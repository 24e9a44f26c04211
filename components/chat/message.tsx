"use client";

import { CircleAlertIcon } from "lucide-react";
import { CopyButton } from "@/components/copy-button";
import { LogoMark } from "@/components/logo";
import { Markdown } from "@/components/markdown";
import { Badge } from "@/components/ui/badge";
import { MessageMeta } from "./message-meta";
import { NotesButton } from "./notes-button";
import { ToolSteps } from "./tool-steps";
import { type ChatMessage, type MessageInfo, messageText } from "./types";

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

export function UserMessage({ message, stored }: { message: ChatMessage; stored: boolean }) {
  const text = messageText(message);
  return (
    <div
      id={`message-${message.id}`}
      className="group/msg flex scroll-mt-4 flex-col items-end gap-1"
      data-testid="message-user"
    >
      <div className="max-w-[85%] rounded-2xl rounded-br-md bg-muted px-4 py-2.5 whitespace-pre-wrap break-words">
        {text}
      </div>
      <div className="-mt-0.5 flex gap-0.5 opacity-100 transition-opacity md:opacity-0 md:group-focus-within/msg:opacity-100 md:group-hover/msg:opacity-100">
        <CopyButton text={() => text} label="Copy message" />
        {stored && <NotesButton messageId={message.id} />}
      </div>
    </div>
  );
}

export function AssistantMessage({
  message,
  info,
  streaming,
  isNewest,
  onExtractionSettled,
}: {
  message: ChatMessage;
  info: MessageInfo | undefined;
  streaming: boolean;
  isNewest: boolean;
  onExtractionSettled: () => void;
}) {
  const text = messageText(message);
  return (
    <div id={`message-${message.id}`} className="group/msg flex scroll-mt-4 gap-3" data-testid="message-assistant">
      <LogoMark className="mt-0.5 size-7" />
      <div className="min-w-0 flex-1 space-y-2">
        <ToolSteps message={message} />
        {text ? <Markdown>{text}</Markdown> : streaming ? <Thinking /> : null}
        {info?.status === "aborted" && <Badge variant="outline">Stopped</Badge>}
        {info?.status === "error" && (
          <p className="flex items-start gap-1.5 text-sm text-destructive">
            <CircleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            The model failed while answering{info.error ? `: ${info.error}` : "."}
          </p>
        )}
        {!streaming && (
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <div className="-ml-2 flex gap-0.5">
              {text && <CopyButton text={() => text} label="Copy answer" />}
              {info && <NotesButton messageId={message.id} />}
            </div>
            <MessageMeta message={message} info={info} isNewest={isNewest} onExtractionSettled={onExtractionSettled} />
          </div>
        )}
      </div>
    </div>
  );
}
