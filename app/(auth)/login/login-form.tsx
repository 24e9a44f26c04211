"use client";

import Link from "next/link";
import { signIn } from "next-auth/react";
import { useActionState } from "react";
import { signInErrorMessage } from "@/lib/auth/callback-url";
import { Field, FormAlert, FormNotice, SubmitButton } from "../_components/form-parts";
import { GoogleButton } from "../_components/google-button";

interface State {
  email: string;
  error: string | null;
  done?: boolean;
}

export function LoginForm({
  callbackUrl,
  initialError,
  notice,
  googleEnabled,
}: {
  callbackUrl: string;
  initialError: string | null;
  notice: string | null;
  googleEnabled: boolean;
}) {
  const [state, action, pending] = useActionState(
    async (_previous: State, form: FormData): Promise<State> => {
      const email = String(form.get("email") ?? "");
      const password = String(form.get("password") ?? "");
      try {
        const result = await signIn("credentials", { email, password, redirect: false, redirectTo: callbackUrl });
        if (!result?.ok || result.error) {
          return { email, error: signInErrorMessage(result?.error ?? "unknown", result?.code) };
        }
      } catch {
        return { email, error: "Could not reach the server. Check your connection and try again." };
      }
      // A full navigation, so the server renders the next page with the new session cookie.
      window.location.assign(callbackUrl);
      return { email, error: null, done: true };
    },
    { email: "", error: initialError },
  );
  const busy = pending || state.done === true;
  const registerHref = callbackUrl === "/" ? "/register" : `/register?callbackUrl=${encodeURIComponent(callbackUrl)}`;

  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-xl font-semibold tracking-tight">Sign in</h1>
        <p className="text-sm text-muted-foreground">Welcome back.</p>
      </div>
      {notice && <FormNotice>{notice}</FormNotice>}
      <form action={action} className="space-y-4" aria-describedby={state.error ? "login-error" : undefined}>
        {state.error && (
          <div id="login-error">
            <FormAlert>{state.error}</FormAlert>
          </div>
        )}
        <Field id="email" label="Email" type="email" autoComplete="email" required defaultValue={state.email} />
        <Field
          id="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          maxLength={200}
        />
        <SubmitButton pending={busy} pendingLabel="Signing in…">
          Sign in
        </SubmitButton>
      </form>
      {googleEnabled && (
        <>
          <div className="flex items-center gap-3 text-xs text-muted-foreground">
            <span className="h-px flex-1 bg-border" />
            or
            <span className="h-px flex-1 bg-border" />
          </div>
          <GoogleButton callbackUrl={callbackUrl} />
        </>
      )}
      <p className="text-center text-sm text-muted-foreground">
        No account yet?{" "}
        <Link href={registerHref} className="font-medium text-foreground underline underline-offset-4 hover:text-brand">
          Create one
        </Link>
      </p>
    </div>
  );
}
