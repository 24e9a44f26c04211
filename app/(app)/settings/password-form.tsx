"use client";

import { useActionState } from "react";
import { Field, FormAlert } from "@/app/(auth)/_components/form-parts";
import { Button } from "@/components/ui/button";

interface State {
  status: "idle" | "saved" | "error";
  message: string | null;
  fields: { currentPassword?: string; newPassword?: string };
}

async function changePassword(_previous: State, form: FormData): Promise<State> {
  try {
    const res = await fetch("/api/account/password", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        currentPassword: String(form.get("currentPassword") ?? ""),
        newPassword: String(form.get("newPassword") ?? ""),
      }),
    });
    if (res.status === 204) return { status: "saved", message: "Password changed.", fields: {} };
    const body = (await res.json().catch(() => ({}))) as {
      error?: { message?: string; fields?: Record<string, string> };
    };
    const raw = body.error?.fields ?? {};
    return {
      status: "error",
      message: body.error?.message?.replace(/^body\.\w+: /, "") ?? "Could not change the password.",
      fields: { currentPassword: raw["body.currentPassword"], newPassword: raw["body.newPassword"] },
    };
  } catch {
    return { status: "error", message: "Could not reach the server.", fields: {} };
  }
}

export function PasswordForm() {
  const [state, action, pending] = useActionState(changePassword, { status: "idle", message: null, fields: {} });
  return (
    <form action={action} className="max-w-sm space-y-4">
      {state.status === "error" && state.message && <FormAlert>{state.message}</FormAlert>}
      {state.status === "saved" && (
        <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
          {state.message}
        </p>
      )}
      <Field
        id="currentPassword"
        label="Current password"
        type="password"
        autoComplete="current-password"
        required
        error={state.fields.currentPassword}
      />
      <Field
        id="newPassword"
        label="New password"
        type="password"
        autoComplete="new-password"
        required
        minLength={8}
        maxLength={200}
        hint="At least 8 characters."
        error={state.fields.newPassword}
      />
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : "Change password"}
      </Button>
    </form>
  );
}
