import { cva, type VariantProps } from "class-variance-authority";
import type { ComponentProps } from "react";
import { cn } from "@/lib/ui/cn";

const badgeVariants = cva(
  "inline-flex items-center gap-1 whitespace-nowrap rounded-md border px-1.5 py-px text-[11px] font-medium leading-4 [&_svg]:size-3 [&_svg]:shrink-0",
  {
    variants: {
      variant: {
        default: "border-border bg-muted text-foreground",
        outline: "border-border text-muted-foreground",
        semantic: "border-semantic/30 bg-semantic-soft text-semantic",
        conversation: "border-conversation/30 bg-conversation-soft text-conversation",
        success: "border-emerald-600/25 bg-emerald-50 text-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-300",
        warning: "border-amber-600/25 bg-amber-50 text-amber-900 dark:bg-amber-950/60 dark:text-amber-200",
        danger: "border-destructive/30 bg-red-50 text-red-800 dark:bg-red-950/50 dark:text-red-300",
        info: "border-sky-600/25 bg-sky-50 text-sky-900 dark:bg-sky-950/60 dark:text-sky-200",
      },
    },
    defaultVariants: { variant: "default" },
  },
);

export type BadgeVariant = NonNullable<VariantProps<typeof badgeVariants>["variant"]>;

export function Badge({ className, variant, ...props }: ComponentProps<"span"> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ variant }), className)} {...props} />;
}
