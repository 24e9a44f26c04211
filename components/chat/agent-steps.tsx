"use client";

import {
  CircleAlertIcon,
  FilePenIcon,
  InboxIcon,
  LoaderCircleIcon,
  MailOpenIcon,
  SearchIcon,
  SendIcon,
  TagIcon,
} from "lucide-react";
import Link from "next/link";
import { type SendState, sendStateText } from "./mail-approval";
import type { ChatMessage } from "./types";

/** The mailbox an agent answer worked on ("gmail" or "demo"), from its data part; null for other answers. */
export function agentMailbox(message: ChatMessage): string | null {
  const part = message.parts.find((p) => p.type === "data-agent-mailbox") as { data?: { kind?: string } } | undefined;
  return part?.data?.kind ?? null;
}

/**
 * The answer that says which mailbox the agent works on, when it is the demo mailbox: the first
 * demo-mailbox answer with mailbox steps (the notice sits above them), once per conversation.
 */
export function mailboxNoticeAnswerId(messages: readonly ChatMessage[]): string | null {
  const first = messages.find(
    (message) => message.role === "assistant" && agentMailbox(message) === "demo" && agentSteps(message).length > 0,
  );
  return first?.id ?? null;
}

/** A mailbox tool step of an agent answer (a dynamic tool part, streamed and stored alike). */
interface AgentStep {
  key: string;
  tool: string;
  done: boolean;
  input: Record<string, unknown>;
  output: unknown;
  error: string | null;
}

export function agentSteps(message: ChatMessage): AgentStep[] {
  return message.parts.flatMap((part, index): AgentStep[] => {
    if (part.type !== "dynamic-tool") return [];
    const output = part.state === "output-available" ? part.output : undefined;
    const failed =
      part.state === "output-error"
        ? (part.errorText ?? "failed")
        : output && typeof output === "object" && "error" in output
          ? String((output as { error: unknown }).error)
          : null;
    return [
      {
        key: part.toolCallId ?? String(index),
        tool: part.toolName,
        done: part.state === "output-available" || part.state === "output-error",
        input: (part.input ?? {}) as Record<string, unknown>,
        output,
        error: failed,
      },
    ];
  });
}

const list = (value: unknown) => (Array.isArray(value) ? value.map(String).join(", ") : "");

/** The prepared send a send_email step made (its result names the pending operation). */
function operationOf(output: unknown): string | null {
  const id = (output as { operationId?: unknown } | null | undefined)?.operationId;
  return typeof id === "string" ? id : null;
}

/**
 * One line per step: what the agent did, and what came of it. A prepared email's line says what
 * its approval card says now (`sends`, by operation id): waiting, sent, declined, failed.
 */
export function stepLabel(step: AgentStep, sends: Readonly<Record<string, SendState>> = {}): string {
  const { input, output } = step;
  const what: Record<string, string> = {
    search_emails: `Searched mail${input.query ? ` for “${String(input.query)}”` : ""}`,
    read_email: "Read an email",
    list_labels: "Listed labels",
    create_draft: `Saved a draft to ${list(input.to)}`,
    list_drafts: "Listed drafts",
    read_draft: "Opened a draft",
    modify_labels: "Changed labels",
    send_email: `Prepared an email to ${list(input.to)}`,
  };
  const action = what[step.tool] ?? `Called ${step.tool}`;
  if (step.error) return `${action}: failed — ${step.error}`;
  if (!step.done) return `${action}…`;
  if (step.tool === "search_emails" && Array.isArray(output)) return `${action}: ${output.length} found`;
  if (step.tool === "list_drafts" && Array.isArray(output)) return `${action}: ${output.length} found`;
  if (step.tool === "read_draft" && output && typeof output === "object" && "subject" in output) {
    return `Opened the draft “${String((output as { subject: unknown }).subject) || "(no subject)"}”`;
  }
  if (step.tool === "read_email" && output && typeof output === "object" && "subject" in output) {
    return `Read “${String((output as { subject: unknown }).subject) || "(no subject)"}”`;
  }
  if (step.tool === "send_email") {
    const operation = operationOf(output);
    const state = operation ? sends[operation] : undefined;
    return state ? `${action}: ${sendStateText(state)}` : action;
  }
  return action;
}

const ICONS: Record<string, typeof SearchIcon> = {
  search_emails: SearchIcon,
  read_email: MailOpenIcon,
  list_labels: TagIcon,
  modify_labels: TagIcon,
  create_draft: FilePenIcon,
  list_drafts: FilePenIcon,
  read_draft: FilePenIcon,
  send_email: SendIcon,
};

/** The agent's mailbox steps, in order ("Searched mail for “from:maya”: 3 found"); the debug view has every detail. */
export function AgentSteps({
  message,
  mailboxNotice,
  sends,
}: {
  message: ChatMessage;
  /** Show the demo-mailbox notice here (once per conversation: the first answer on it). */
  mailboxNotice: boolean;
  /** The state each of the message's approval cards shows, by operation id. */
  sends?: Readonly<Record<string, SendState>>;
}) {
  const steps = agentSteps(message);
  const demo = agentMailbox(message) === "demo";
  if (steps.length === 0) return null;
  return (
    <ol className="flex flex-col items-start gap-1" aria-label="Mailbox steps">
      {demo && mailboxNotice && (
        <li className="text-xs text-muted-foreground" data-testid="agent-mailbox-notice">
          On the <strong className="font-medium text-foreground">demo mailbox</strong>, a sample inbox kept in Lifeline
          (nothing is sent from it).{" "}
          <Link href="/settings#gmail-heading" className="underline underline-offset-2 hover:text-foreground">
            Connect Gmail
          </Link>{" "}
          to use yours.
        </li>
      )}
      {steps.map((step) => {
        const Icon = step.error ? CircleAlertIcon : step.done ? (ICONS[step.tool] ?? InboxIcon) : LoaderCircleIcon;
        return (
          <li
            key={step.key}
            className={
              step.error
                ? "inline-flex max-w-full items-center gap-1.5 rounded-full border border-destructive/40 bg-muted/40 px-2.5 py-0.5 text-xs text-destructive"
                : "inline-flex max-w-full items-center gap-1.5 rounded-full border bg-muted/40 px-2.5 py-0.5 text-xs text-muted-foreground"
            }
            data-testid="agent-step"
          >
            <Icon
              className={step.done || step.error ? "size-3.5 shrink-0" : "size-3.5 shrink-0 animate-spin"}
              aria-hidden="true"
            />
            <span className="truncate">{stepLabel(step, sends)}</span>
          </li>
        );
      })}
    </ol>
  );
}
