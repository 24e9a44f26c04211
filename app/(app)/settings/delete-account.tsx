"use client";

import { useState } from "react";
import { Field, FormAlert } from "@/app/(auth)/_components/form-parts";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { useHydrated } from "@/components/use-hydrated";
import { signInPathWith } from "@/lib/auth/sign-in-notice";
import { ApiError, api } from "@/lib/ui/api";
import { ConfirmFooter } from "./confirm-footer";

const PHRASE = "delete my account";

/** Google-only accounts must have signed in within the last 10 minutes; the server says so otherwise. */
export function DeleteAccount({ email, hasPassword }: { email: string; hasPassword: boolean }) {
  const [confirmation, setConfirmation] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [passwordError, setPasswordError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();
  const typed = confirmation.trim().toLowerCase();
  const confirmed = typed === email.toLowerCase() || typed === PHRASE;

  async function remove() {
    setPending(true);
    setError(null);
    setPasswordError(undefined);
    try {
      await api("/api/account", { method: "DELETE", json: hasPassword ? { currentPassword: password } : {} });
      window.location.assign(signInPathWith("account-deleted"));
    } catch (e) {
      setPending(false);
      if (e instanceof ApiError && e.fields?.["body.currentPassword"]) {
        setPasswordError(e.fields["body.currentPassword"]);
      } else {
        setError(e instanceof Error ? e.message : "Could not delete the account.");
      }
    }
  }

  return (
    <Dialog
      onOpenChange={(open) => {
        if (!open) {
          setConfirmation("");
          setPassword("");
          setError(null);
          setPasswordError(undefined);
        }
      }}
    >
      <DialogTrigger asChild>
        <Button variant="destructive" disabled={!hydrated}>
          Delete account…
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Delete your account?</DialogTitle>
          <DialogDescription>
            This deletes your account and all its chats, memories and notes at once, and signs you out everywhere. It
            cannot be undone.
          </DialogDescription>
        </DialogHeader>
        <form
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            if (confirmed && !pending) void remove();
          }}
        >
          {error && <FormAlert>{error}</FormAlert>}
          <Field
            id="delete-confirmation"
            label={`Type your email (${email}) or "${PHRASE}"`}
            autoComplete="off"
            value={confirmation}
            onChange={(event) => setConfirmation(event.target.value)}
          />
          {hasPassword && (
            <Field
              id="delete-password"
              label="Current password"
              type="password"
              autoComplete="current-password"
              required
              maxLength={200}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              error={passwordError}
            />
          )}
          <ConfirmFooter
            action="Delete my account"
            pendingAction="Deleting…"
            pending={pending}
            disabled={!confirmed || (hasPassword && !password)}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
