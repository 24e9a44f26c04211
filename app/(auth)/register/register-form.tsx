"use client";

import Link from "next/link";
import { signIn } from "next-auth/react";
import { useActionState } from "react";
import { Field, FormAlert, SubmitButton } from "../_components/form-parts";
import { GoogleButton } from "../_components/google-button";

type FieldName = "name" | "email" | "password";

interface State {
  values: { name: string; email: string };
  error: string | null;
  fields: Partial<Record<FieldName, string>>;
  done?: boolean;
}

interface ApiError {
  error?: { code?: string; message?: string; fields?: Record<string, string> };
}

const initial: State = { values: { name: "", email: "" }, error: null, fields: {} };

async function register(_previous: State, form: FormData, callbackUrl: string): Promise<State> {
  const values = { name: String(form.get("name") ?? ""), email: String(form.get("email") ?? "") };
  const password = String(form.get("password") ?? "");
  try {
    const res = await fetch("/api/auth/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...values, password }),
    });
    if (res.status !== 201) {
      const body = (await res.json().catch(() => ({}))) as ApiError;
      if (body.error?.code === "conflict:email") {
        const message = "An account with this email already exists.";
        return { values, error: `${message} Sign in instead?`, fields: { email: message } };
      }
      const fields: State["fields"] = {};
      for (const [path, message] of Object.entries(body.error?.fields ?? {})) {
        const name = path.replace(/^body\./, "") as FieldName;
        if (name === "name" || name === "email" || name === "password") fields[name] = message;
      }
      const count = Object.keys(fields).length;
      return {
        values,
        fields,
        error:
          count > 0
            ? `Please correct the highlighted field${count > 1 ? "s" : ""}.`
            : (body.error?.message ?? "Could not create the account."),
      };
    }
    const result = await signIn("credentials", {
      email: values.email,
      password,
      redirect: false,
      redirectTo: callbackUrl,
    });
    if (!result?.ok || result.error) {
      return { values, fields: {}, error: "Your account was created, but signing in failed. Please sign in." };
    }
  } catch {
    return { values, fields: {}, error: "Could not reach the server. Check your connection and try again." };
  }
  window.location.assign(callbackUrl);
  return { values, fields: {}, error: null, done: true };
}

export function RegisterForm({ callbackUrl, googleEnabled }: { callbackUrl: string; googleEnabled: boolean }) {
  const [state, action, pending] = useActionState(
    (previous: State, form: FormData) => register(previous, form, callbackUrl),
    initial,
  );
  const busy = pending || state.done === true;
  const loginHref = callbackUrl === "/" ? "/login" : `/login?callbackUrl=${encodeURIComponent(callbackUrl)}`;

  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-xl font-semibold tracking-tight">Create your account</h1>
        <p className="text-sm text-muted-foreground">An assistant that remembers — and shows you what.</p>
      </div>
      <form action={action} className="space-y-4">
        {state.error && <FormAlert>{state.error}</FormAlert>}
        <Field
          id="name"
          label="Name"
          autoComplete="name"
          required
          maxLength={100}
          defaultValue={state.values.name}
          error={state.fields.name}
        />
        <Field
          id="email"
          label="Email"
          type="email"
          autoComplete="email"
          required
          defaultValue={state.values.email}
          error={state.fields.email}
        />
        <Field
          id="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          maxLength={200}
          hint="At least 8 characters."
          error={state.fields.password}
        />
        <SubmitButton pending={busy} pendingLabel="Creating account…">
          Create account
        </SubmitButton>
      </form>
      {googleEnabled && <GoogleButton callbackUrl={callbackUrl} label="Sign up with Google" />}
      <p className="text-center text-sm text-muted-foreground">
        Already have an account?{" "}
        <Link href={loginHref} className="font-medium text-foreground underline underline-offset-4 hover:text-brand">
          Sign in
        </Link>
      </p>
    </div>
  );
}
