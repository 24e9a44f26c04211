import { CircleCheckIcon } from "lucide-react";
import type { InputHTMLAttributes, ReactNode } from "react";
import { buttonVariants } from "@/components/ui/button";
import { inputClass } from "@/components/ui/input";
import { useHydrated } from "@/components/use-hydrated";
import { cn } from "@/lib/ui/cn";

export function Field({
  id,
  label,
  error,
  hint,
  ...input
}: { id: string; label: string; error?: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        name={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={cn(inputClass, "h-10")}
        {...input}
      />
      {hint && !error && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-xs text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

export function FormAlert({ children }: { children: ReactNode }) {
  return (
    <div
      role="alert"
      className="rounded-lg border border-destructive/30 bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950/50 dark:text-red-200"
    >
      {children}
    </div>
  );
}

/** News, not an error (lib/auth/sign-in-notice.ts). */
export function FormNotice({ children }: { children: ReactNode }) {
  return (
    <div
      role="status"
      data-testid="sign-in-notice"
      className="flex gap-2 rounded-lg border border-brand/30 bg-brand/5 px-3 py-2 text-sm text-foreground"
    >
      <CircleCheckIcon className="mt-0.5 size-4 shrink-0 text-brand" aria-hidden="true" />
      <span>{children}</span>
    </div>
  );
}

export function SubmitButton({
  pending,
  children,
  pendingLabel,
}: {
  pending: boolean;
  children: ReactNode;
  pendingLabel: string;
}) {
  // Before hydration the form's action is not attached: a click would do nothing (a dev server
  // still compiling the page can take minutes), so the button waits for it.
  const hydrated = useHydrated();
  return (
    <button
      type="submit"
      disabled={pending || !hydrated}
      aria-disabled={pending || !hydrated}
      className={cn(buttonVariants({ size: "lg" }), "w-full disabled:cursor-wait")}
    >
      {pending ? pendingLabel : children}
    </button>
  );
}

export const secondaryButtonClass = cn(
  buttonVariants({ variant: "outline", size: "lg" }),
  "w-full disabled:cursor-wait",
);
