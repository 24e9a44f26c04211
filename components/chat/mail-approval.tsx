"use client";

import {
  CheckIcon,
  CircleAlertIcon,
  LoaderCircleIcon,
  PencilIcon,
  SendIcon,
  TriangleAlertIcon,
  XIcon,
} from "lucide-react";
import { useCallback, useEffect, useId, useState } from "react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input, Textarea } from "@/components/ui/input";
import type { PendingSend } from "@/lib/agent/approval";
import type { Draft } from "@/lib/agent/mailbox/types";
import { ApiError, api, errorMessage } from "@/lib/ui/api";

/** The approval card's data part, as the agent streams it and the message stores it. */
export interface MailApprovalData {
  operationId: string;
  draft: Draft;
}

export function approvalsOf(parts: readonly { type: string }[]): MailApprovalData[] {
  return parts.flatMap((part) =>
    part.type === "data-mail-approval" ? [(part as unknown as { data: MailApprovalData }).data] : [],
  );
}

/** '"Chen, Maya" <maya@x.org>, tom@y.org' → the two recipients (a comma in quotes or <…> does not split). */
export function splitRecipients(value: string): string[] {
  const items: string[] = [];
  let current = "";
  let quoted = false;
  let angled = false;
  for (const char of value) {
    if (char === '"') quoted = !quoted;
    else if (char === "<" && !quoted) angled = true;
    else if (char === ">" && !quoted) angled = false;
    if (char === "," && !quoted && !angled) {
      items.push(current);
      current = "";
    } else current += char;
  }
  items.push(current);
  return items.map((item) => item.trim()).filter(Boolean);
}

/** "maya@example.com has never written to or been written to from the demo mailbox." */
export function unfamiliarText(recipients: readonly string[], mailbox: string): string {
  const names =
    recipients.length === 1 ? recipients[0] : `${recipients.slice(0, -1).join(", ")} and ${recipients.at(-1)}`;
  return `No email in ${mailbox} is from or to ${names}.`;
}

type Send = Pick<PendingSend, "id" | "status" | "mailbox" | "draft" | "error" | "interrupted">;

/** What became of a prepared email, as the card last read it: the chat's other lines about it follow this. */
export type SendState = Pick<Send, "status" | "error" | "interrupted">;

/**
 * A prepared email's state in a few words ("sent", "declined: nothing was sent"), for the line above
 * the card: it follows the card, never the model's text, which was written before the user decided.
 */
export function sendStateText(state: Pick<SendState, "status" | "interrupted" | "error">): string {
  switch (state.status) {
    case "approved":
      return "sending…";
    case "succeeded":
      return "sent";
    case "cancelled":
      // Declined by the user, or cancelled with a reason: its answer was regenerated or its question edited.
      return state.error ? "cancelled, nothing was sent" : "declined, nothing was sent";
    case "failed":
      return state.interrupted ? "maybe sent (interrupted)" : "not sent, the mailbox failed";
    default:
      return "waiting for your approval";
  }
}

function Field({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="flex gap-2" data-testid={testId}>
      <dt className="w-16 shrink-0 text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words">{value}</dd>
    </div>
  );
}

/** A failed send's line: not sent (the mailbox refused), or maybe sent (the sending process stopped). */
export function failureText(send: Pick<Send, "error" | "interrupted">): string {
  return send.interrupted
    ? `Maybe sent: ${send.error ?? "the send was interrupted"}.`
    : `Not sent: ${send.error ?? "the mailbox failed"}.`;
}

function StatusLine({ send, loaded }: { send: Send; loaded: boolean }) {
  const demo = send.mailbox === "demo";
  switch (send.status) {
    case "approved":
      return (
        <p className="flex items-center gap-1.5 text-sm text-muted-foreground" role="status">
          <LoaderCircleIcon className="size-4 animate-spin" aria-hidden="true" /> Sending…
        </p>
      );
    case "succeeded":
      return (
        <p className="flex items-center gap-1.5 text-sm text-success" role="status" data-testid="approval-status">
          <CheckIcon className="size-4" aria-hidden="true" />
          Sent{demo ? " — it is in the demo mailbox's Sent; nothing left Lifeline" : " from your Gmail"}.
        </p>
      );
    case "cancelled":
      return (
        <p
          className="flex items-center gap-1.5 text-sm text-muted-foreground"
          role="status"
          data-testid="approval-status"
        >
          <XIcon className="size-4" aria-hidden="true" />
          {send.error ? `Cancelled (${send.error}) — nothing was sent.` : "Declined — nothing was sent."}
        </p>
      );
    case "failed":
      return (
        <p className="flex items-start gap-1.5 text-sm text-destructive" role="status" data-testid="approval-status">
          <CircleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {failureText(send)}
        </p>
      );
    default:
      // Until the card has read the send, it does not know it is still waiting.
      return loaded ? (
        <p className="text-sm text-muted-foreground" role="status" data-testid="approval-status">
          Waiting for your approval: nothing is sent until you approve it.
        </p>
      ) : null;
  }
}

function DraftEditor({
  draft,
  onSave,
  onCancel,
}: {
  draft: Draft;
  onSave: (next: Draft) => Promise<void>;
  onCancel: () => void;
}) {
  const [to, setTo] = useState(draft.to.join(", "));
  const [cc, setCc] = useState(draft.cc.join(", "));
  const [bcc, setBcc] = useState(draft.bcc.join(", "));
  const [subject, setSubject] = useState(draft.subject);
  const [body, setBody] = useState(draft.body);
  const [saving, setSaving] = useState(false);
  const id = useId();
  return (
    <form
      className="space-y-2"
      aria-label="Edit the email"
      onSubmit={async (event) => {
        event.preventDefault();
        setSaving(true);
        try {
          await onSave({ to: splitRecipients(to), cc: splitRecipients(cc), bcc: splitRecipients(bcc), subject, body });
        } finally {
          setSaving(false);
        }
      }}
    >
      {(
        [
          ["To", to, setTo],
          ["Cc", cc, setCc],
          ["Bcc", bcc, setBcc],
          ["Subject", subject, setSubject],
        ] as const
      ).map(([label, value, set]) => (
        <div key={label} className="flex items-center gap-2 text-sm">
          <label htmlFor={`${id}-${label}`} className="w-16 shrink-0 text-muted-foreground">
            {label}
          </label>
          <Input id={`${id}-${label}`} value={value} onChange={(event) => set(event.target.value)} className="h-8" />
        </div>
      ))}
      <label htmlFor={`${id}-body`} className="sr-only">
        Body
      </label>
      {draft.thread && (
        <p className="text-xs text-muted-foreground">
          A reply: it stays in its conversation while the subject stays the same (with or without “Re:”).
        </p>
      )}
      <Textarea id={`${id}-body`} rows={6} value={body} onChange={(event) => setBody(event.target.value)} />
      <div className="flex justify-end gap-2">
        <Button type="button" variant="ghost" size="sm" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" size="sm" disabled={saving}>
          Save draft
        </Button>
      </div>
    </form>
  );
}

/**
 * An email the agent prepared: the exact draft, and Approve / Edit / Decline. Approve sends exactly
 * the draft shown here (the server refuses if it changed meanwhile); nothing is sent otherwise.
 * The card reads the send's current state, so after a reload it says what became of it.
 */
export function MailApproval({
  approval,
  onState,
}: {
  approval: MailApprovalData;
  /** Told each state the card shows (the message's step line above follows it). */
  onState?: (operationId: string, state: SendState) => void;
}) {
  const [send, setSend] = useState<Send>({
    id: approval.operationId,
    status: "pending_confirmation",
    mailbox: "",
    draft: approval.draft,
    error: null,
    interrupted: false,
  });
  const [loaded, setLoaded] = useState(false);
  const [unfamiliar, setUnfamiliar] = useState<string[] | null>(null);
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);
  const url = `/api/agent/sends/${approval.operationId}`;

  const refresh = useCallback(async () => {
    try {
      const body = await api<{ send: Send; unfamiliarRecipients: string[] | null }>(url);
      setSend(body.send);
      setUnfamiliar(body.unfamiliarRecipients);
    } catch (error) {
      toast.error(`Could not load the email: ${errorMessage(error)}`);
    } finally {
      setLoaded(true);
    }
  }, [url]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const { status, error, interrupted } = send;
  useEffect(() => {
    if (loaded) onState?.(approval.operationId, { status, error, interrupted });
  }, [onState, loaded, approval.operationId, status, error, interrupted]);

  const act = async (what: "approve" | "decline") => {
    setBusy(true);
    if (what === "approve") setSend((current) => ({ ...current, status: "approved" }));
    try {
      const body = await api<{ send: Send }>(
        `${url}/${what}`,
        what === "approve" ? { json: { draft: send.draft } } : { method: "POST" },
      );
      setSend(body.send);
    } catch (error) {
      toast.error(errorMessage(error));
      // A 409 says the send changed or was decided elsewhere; a 502 that the mailbox failed: show its state now.
      if (error instanceof ApiError) await refresh();
    } finally {
      setBusy(false);
    }
  };

  const save = async (draft: Draft) => {
    try {
      const body = await api<{ send: Send; unfamiliarRecipients: string[] | null }>(url, {
        method: "PATCH",
        json: { draft },
      });
      setSend(body.send);
      setUnfamiliar(body.unfamiliarRecipients);
      setEditing(false);
    } catch (error) {
      toast.error(`Could not save the draft: ${errorMessage(error)}`);
      if (error instanceof ApiError && error.status === 409) await refresh();
    }
  };

  const pending = send.status === "pending_confirmation";
  const { draft } = send;
  return (
    <section
      className="max-w-xl space-y-3 rounded-xl border bg-card p-4 shadow-xs"
      aria-label="Email waiting for your approval"
      data-testid="mail-approval"
    >
      <header className="flex flex-wrap items-center gap-2">
        <SendIcon className="size-4 text-muted-foreground" aria-hidden="true" />
        <h3 className="text-sm font-semibold">{pending ? "Send this email?" : "Email"}</h3>
        {send.mailbox === "demo" && (
          <Badge variant="outline" title="A practice mailbox kept in Lifeline's database: no email leaves Lifeline">
            Demo mailbox
          </Badge>
        )}
        {send.mailbox === "gmail" && <Badge variant="outline">Gmail</Badge>}
      </header>
      {editing && pending ? (
        <DraftEditor draft={draft} onSave={save} onCancel={() => setEditing(false)} />
      ) : (
        <>
          <dl className="space-y-1 text-sm">
            <Field label="To" value={draft.to.join(", ")} />
            {draft.cc.length > 0 && <Field label="Cc" value={draft.cc.join(", ")} />}
            {draft.bcc.length > 0 && <Field label="Bcc" value={draft.bcc.join(", ")} />}
            <Field label="Subject" value={draft.subject || "(no subject)"} />
            {draft.thread && (
              <Field label="Reply" value="in the conversation of the email it answers" testId="approval-thread" />
            )}
          </dl>
          {pending && unfamiliar && unfamiliar.length > 0 && (
            <p
              role="note"
              data-testid="approval-unfamiliar"
              className="flex items-start gap-1.5 rounded-lg border border-amber-500/40 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:bg-amber-950/40 dark:text-amber-100"
            >
              <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              <span>
                {unfamiliarText(unfamiliar, send.mailbox === "demo" ? "the demo mailbox" : "your mailbox")} Check the
                address before you approve.
              </span>
            </p>
          )}
          <div className="rounded-lg border bg-surface px-3 py-2 text-sm whitespace-pre-wrap break-words">
            {draft.body || "(empty)"}
          </div>
        </>
      )}
      {pending && !editing && (
        <div className="flex flex-wrap gap-2">
          <Button size="sm" disabled={busy || !loaded} onClick={() => void act("approve")}>
            <SendIcon aria-hidden="true" /> Approve and send
          </Button>
          <Button size="sm" variant="outline" disabled={busy || !loaded} onClick={() => setEditing(true)}>
            <PencilIcon aria-hidden="true" /> Edit
          </Button>
          <Button size="sm" variant="ghost" disabled={busy || !loaded} onClick={() => void act("decline")}>
            <XIcon aria-hidden="true" /> Decline
          </Button>
        </div>
      )}
      <StatusLine send={send} loaded={loaded} />
    </section>
  );
}
