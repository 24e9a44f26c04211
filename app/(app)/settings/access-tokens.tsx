"use client";

import { KeyRoundIcon } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { FormAlert } from "@/app/(auth)/_components/form-parts";
import { CopyButton } from "@/components/copy-button";
import { useDates } from "@/components/dates-provider";
import { Badge } from "@/components/ui/badge";
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
import { Input, Label, NativeSelect } from "@/components/ui/input";
import { accessTokenConfig } from "@/core/config";
import type { AccessToken } from "@/db/queries/access-tokens";
import { ApiError, api, errorMessage } from "@/lib/ui/api";
import { formatDateTime } from "@/lib/ui/format";
import { ConfirmFooter } from "./confirm-footer";

export type AccessTokenRow = Omit<AccessToken, "createdAt" | "lastUsedAt" | "expiresAt"> & {
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
};

const STATE_LABELS: Record<AccessTokenRow["state"], { label: string; tone: "success" | "warning" }> = {
  active: { label: "Active", tone: "success" },
  expired: { label: "Expired", tone: "warning" },
  ended: { label: "Ended with your sessions", tone: "warning" },
};

function When({ value, empty }: { value: string | null; empty: string }) {
  const dates = useDates();
  if (!value) return <>{empty}</>;
  return <time dateTime={value}>{formatDateTime(value, dates)}</time>;
}

export function AccessTokens({ initial }: { initial: AccessTokenRow[] }) {
  const [tokens, setTokens] = useState(initial);

  const reload = async () => {
    const { tokens: next } = await api<{ tokens: AccessTokenRow[] }>("/api/access-tokens");
    setTokens(next);
  };

  return (
    <div className="space-y-4">
      <CreateTokenDialog onCreated={reload} />
      {tokens.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="no-access-tokens">
          No access tokens yet.
        </p>
      ) : (
        <ul className="divide-y rounded-lg border" aria-label="Access tokens">
          {tokens.map((token) => (
            <li
              key={token.id}
              className="flex flex-wrap items-center gap-x-4 gap-y-2 p-3 text-sm"
              data-testid="access-token"
            >
              <KeyRoundIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium" data-testid="access-token-name">
                    {token.name}
                  </span>
                  <Badge variant="outline">{token.scope}</Badge>
                  <Badge variant={STATE_LABELS[token.state].tone}>{STATE_LABELS[token.state].label}</Badge>
                </div>
                <p className="mt-1 text-xs text-muted-foreground">
                  Created <When value={token.createdAt} empty="—" /> · Last used{" "}
                  <span data-testid="access-token-last-used">
                    <When value={token.lastUsedAt} empty="never" />
                  </span>{" "}
                  · {token.expiresAt ? "Expires " : ""}
                  <When value={token.expiresAt} empty="Never expires" />
                </p>
              </div>
              <RevokeTokenDialog token={token} onRevoked={reload} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The dialog names the token and its last use: a program using it loses access at once. */
function RevokeTokenDialog({ token, onRevoked }: { token: AccessTokenRow; onRevoked: () => Promise<void> }) {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const revoke = async () => {
    setPending(true);
    setError(null);
    try {
      await api(`/api/access-tokens/${token.id}`, { method: "DELETE" });
    } catch (failure) {
      setError(`Could not revoke: ${errorMessage(failure)}`);
      setPending(false);
      return;
    }
    setOpen(false);
    setPending(false);
    toast.success(`Revoked “${token.name}”`);
    await onRevoked();
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setError(null);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          Revoke<span className="sr-only"> {token.name}</span>
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Revoke “{token.name}”?</DialogTitle>
          <DialogDescription data-testid="revoke-last-used">
            {token.lastUsedAt ? (
              <>
                Last used <When value={token.lastUsedAt} empty="never" />.
              </>
            ) : (
              "It has never been used."
            )}
          </DialogDescription>
        </DialogHeader>
        <p className="text-sm text-muted-foreground">
          Any program that uses it loses access at once, and it cannot be turned back on: to connect a program again,
          create a new token. Its MCP calls stay listed in External calls.
        </p>
        {error && <FormAlert>{error}</FormAlert>}
        <ConfirmFooter
          action="Revoke token"
          pendingAction="Revoking…"
          pending={pending}
          onConfirm={() => void revoke()}
        />
      </DialogContent>
    </Dialog>
  );
}

function CreateTokenDialog({ onCreated }: { onCreated: () => Promise<void> }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [secret, setSecret] = useState<string | null>(null);

  const submit = async (form: FormData) => {
    const expiry = String(form.get("expiresInDays") ?? "");
    const body = {
      name: String(form.get("name") ?? "").trim(),
      scope: String(form.get("scope")),
      expiresInDays: expiry === "" ? null : Number(expiry),
    };
    setPending(true);
    setFieldErrors({});
    try {
      const created = await api<{ secret: string }>("/api/access-tokens", { json: body });
      setSecret(created.secret);
      await onCreated();
    } catch (error) {
      if (error instanceof ApiError && error.fields) {
        setFieldErrors(Object.fromEntries(Object.entries(error.fields).map(([k, v]) => [k.replace(/^body\./, ""), v])));
      } else {
        toast.error(`Could not create the token: ${errorMessage(error)}`);
      }
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        // The secret is shown once: closing the dialog forgets it.
        if (!next) setSecret(null);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline">Create access token</Button>
      </DialogTrigger>
      <DialogContent>
        {secret ? (
          <>
            <DialogHeader>
              <DialogTitle>Copy your new token</DialogTitle>
              <DialogDescription>
                This is the only time it is shown: Lifeline keeps only a hash of it. Anyone holding it can use your
                memory with its scope until you revoke it.
              </DialogDescription>
            </DialogHeader>
            <div className="flex items-center gap-2">
              <Input
                readOnly
                value={secret}
                aria-label="New access token"
                data-testid="new-access-token"
                className="font-mono text-xs"
                onFocus={(event) => event.currentTarget.select()}
              />
              <CopyButton text={() => secret} label="Copy token" />
            </div>
            <DialogFooter>
              <Button type="button" onClick={() => setOpen(false)}>
                Done
              </Button>
            </DialogFooter>
          </>
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>Create an access token</DialogTitle>
              <DialogDescription>
                For programs that use your memory on your behalf. Name it after the program, so you know which one to
                revoke.
              </DialogDescription>
            </DialogHeader>
            <form action={submit} className="space-y-4">
              <div className="space-y-1.5">
                <Label htmlFor={`${id}-name`}>Name</Label>
                <Input
                  id={`${id}-name`}
                  name="name"
                  required
                  maxLength={accessTokenConfig.nameMaxChars}
                  placeholder="Claude Desktop"
                  aria-invalid={fieldErrors.name ? true : undefined}
                />
                {fieldErrors.name && <p className="text-xs text-destructive">{fieldErrors.name}</p>}
              </div>
              <div className="grid gap-4 sm:grid-cols-2">
                <div className="space-y-1.5">
                  <Label htmlFor={`${id}-scope`}>Scope</Label>
                  <NativeSelect id={`${id}-scope`} name="scope" defaultValue="read" className="w-full">
                    <option value="read">read — look memories up</option>
                    <option value="read+write">read+write — also add and delete</option>
                  </NativeSelect>
                </div>
                <div className="space-y-1.5">
                  <Label htmlFor={`${id}-expiry`}>Expires</Label>
                  <NativeSelect id={`${id}-expiry`} name="expiresInDays" defaultValue="90" className="w-full">
                    {accessTokenConfig.expiryDays.map((days) => (
                      <option key={days} value={days}>
                        in {days} days
                      </option>
                    ))}
                    <option value="">never</option>
                  </NativeSelect>
                </div>
              </div>
              <DialogFooter>
                <Button type="button" variant="outline" onClick={() => setOpen(false)}>
                  Cancel
                </Button>
                <Button type="submit" disabled={pending}>
                  {pending ? "Creating…" : "Create token"}
                </Button>
              </DialogFooter>
            </form>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
