"use client";

import { useState } from "react";
import { FormAlert } from "@/app/(auth)/_components/form-parts";
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
import { api, errorMessage } from "@/lib/ui/api";
import { signOutHere } from "@/lib/ui/sign-out";
import { ConfirmFooter } from "./confirm-footer";

export function SignOutButton() {
  const [pending, setPending] = useState(false);
  return (
    <Button
      variant="outline"
      disabled={pending}
      onClick={async () => {
        setPending(true);
        await signOutHere();
      }}
    >
      {pending ? "Signing out…" : "Sign out"}
    </Button>
  );
}

/**
 * Ends every session and every access token (docs/auth.md § Ending sessions). Its label avoids "Sign out",
 * which names the button above (and e2e finds it by those words).
 */
export function SignOutEverywhereButton() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const hydrated = useHydrated();

  async function endAll() {
    setPending(true);
    setError(null);
    try {
      await api("/api/account/sessions", { method: "DELETE" });
    } catch (e) {
      setError(errorMessage(e));
      setPending(false);
      return;
    }
    await signOutHere("signed-out-everywhere");
  }

  return (
    <Dialog
      onOpenChange={(open) => {
        if (!open) setError(null);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" disabled={!hydrated}>
          End all sessions…
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>End all sessions?</DialogTitle>
          <DialogDescription>You will be signed out on every browser and device, this one included.</DialogDescription>
        </DialogHeader>
        <ul className="list-disc space-y-1.5 pl-5 text-sm text-muted-foreground">
          <li>Everyone signed in to your account — you, or anyone who should not be — has to sign in again.</li>
          <li>
            Every access token you created stops working: programs that use one lose access until you create a new
            token.
          </li>
          <li>Your chats, memories and notes stay as they are.</li>
        </ul>
        {error && <FormAlert>{error}</FormAlert>}
        <ConfirmFooter
          action="End all sessions"
          pendingAction="Ending all sessions…"
          pending={pending}
          onConfirm={() => void endAll()}
        />
      </DialogContent>
    </Dialog>
  );
}
