"use client";

import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { api, errorMessage } from "@/lib/ui/api";
import { signOutHere } from "@/lib/ui/sign-out";

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
 * "Sign out everywhere": ends every other session (DELETE /api/account/sessions), then this one.
 * Its label avoids the words "Sign out", which name the button above (and e2e finds it by them).
 */
export function SignOutEverywhereButton() {
  const [pending, setPending] = useState(false);
  return (
    <Button
      variant="outline"
      disabled={pending}
      onClick={async () => {
        setPending(true);
        try {
          await api("/api/account/sessions", { method: "DELETE" });
        } catch (error) {
          toast.error(errorMessage(error));
          setPending(false);
          return;
        }
        await signOutHere();
      }}
    >
      {pending ? "Ending all sessions…" : "End all sessions"}
    </Button>
  );
}
