"use client";

import { signOut } from "next-auth/react";
import { useState } from "react";
import { Button } from "@/components/ui/button";

export function SignOutButton() {
  const [pending, setPending] = useState(false);
  return (
    <Button
      variant="outline"
      disabled={pending}
      onClick={async () => {
        setPending(true);
        await signOut({ redirectTo: "/login" });
      }}
    >
      {pending ? "Signing out…" : "Sign out"}
    </Button>
  );
}
