import type { ComponentProps } from "react";
import { cn } from "@/lib/ui/cn";

export const inputClass =
  "block w-full rounded-lg border border-input bg-background px-3 py-2 text-sm shadow-xs outline-none transition placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/25 disabled:opacity-60 aria-[invalid=true]:border-destructive aria-[invalid=true]:ring-destructive/20";

export function Input({ className, ...props }: ComponentProps<"input">) {
  return <input className={cn(inputClass, "h-9", className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentProps<"textarea">) {
  return <textarea className={cn(inputClass, "min-h-20", className)} {...props} />;
}

/** A native select (keyboard and screen-reader behaviour for free), styled like the inputs. */
export function NativeSelect({ className, ...props }: ComponentProps<"select">) {
  return <select className={cn(inputClass, "h-9 w-auto cursor-pointer py-0 pr-8", className)} {...props} />;
}

export function Label({ className, ...props }: ComponentProps<"label">) {
  // biome-ignore lint/a11y/noLabelWithoutControl: callers pass htmlFor or wrap the control
  return <label className={cn("text-sm font-medium leading-none", className)} {...props} />;
}
