"use client";

import { useRouter } from "next/navigation";
import { useActionState } from "react";
import { toast } from "sonner";
import { Field, FormAlert } from "@/app/(auth)/_components/form-parts";
import { Button } from "@/components/ui/button";
import { ApiError, api } from "@/lib/ui/api";

interface State {
  error: string | null;
  fields: { name?: string; email?: string; currentPassword?: string };
}

/** A new email needs the current password, or a recent sign-in for Google-only accounts. */
export function ProfileForm({ name, email, hasPassword }: { name: string; email: string; hasPassword: boolean }) {
  const router = useRouter();
  const [state, action, pending] = useActionState(
    async (_previous: State, form: FormData): Promise<State> => {
      const next = { name: String(form.get("name") ?? "").trim(), email: String(form.get("email") ?? "").trim() };
      const currentPassword = String(form.get("profile-current-password") ?? "");
      const emailChanged = next.email.toLowerCase() !== email.toLowerCase();
      try {
        await api("/api/account", {
          method: "PATCH",
          json: {
            name: next.name || null,
            email: next.email,
            ...(emailChanged && currentPassword ? { currentPassword } : {}),
          },
        });
        toast.success("Profile saved");
        router.refresh();
        return { error: null, fields: {} };
      } catch (error) {
        if (error instanceof ApiError && error.code === "conflict:email") {
          return { error: null, fields: { email: "An account with this email already exists." } };
        }
        const fields = error instanceof ApiError ? error.fields : undefined;
        return {
          error: error instanceof Error ? error.message : "Could not save the profile.",
          fields: {
            name: fields?.["body.name"],
            email: fields?.["body.email"],
            currentPassword: fields?.["body.currentPassword"],
          },
        };
      }
    },
    { error: null, fields: {} },
  );

  return (
    <form action={action} className="max-w-sm space-y-4">
      {state.error && <FormAlert>{state.error}</FormAlert>}
      <Field
        id="profile-name"
        name="name"
        label="Name"
        autoComplete="name"
        maxLength={100}
        defaultValue={name}
        error={state.fields.name}
      />
      <Field
        id="profile-email"
        name="email"
        label="Email"
        type="email"
        autoComplete="email"
        required
        defaultValue={email}
        error={state.fields.email}
      />
      {hasPassword && (
        <Field
          id="profile-current-password"
          label="Current password"
          type="password"
          autoComplete="current-password"
          maxLength={200}
          hint="Needed only to change your email."
          error={state.fields.currentPassword}
        />
      )}
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : "Save profile"}
      </Button>
    </form>
  );
}
