import type { ReactNode } from "react";
import { cn } from "@/lib/ui/cn";

/**
 * A titled card section of a page (debug view, memories, settings). `id` is the section's own id,
 * so links can point at it (`/messages/…/debug#extraction`), and its heading's prefix.
 */
export function SectionCard({
  id,
  title,
  description,
  actions,
  children,
  className,
}: {
  id: string;
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-heading`}
      className={cn("scroll-mt-4 rounded-xl border bg-card", className)}
    >
      <div className="flex flex-wrap items-start justify-between gap-2 border-b px-4 py-3 sm:px-5">
        <div className="min-w-0">
          <h2 id={`${id}-heading`} className="text-[15px] font-semibold">
            {title}
          </h2>
          {description && <p className="mt-0.5 text-sm text-muted-foreground">{description}</p>}
        </div>
        {actions}
      </div>
      <div className="px-4 py-4 sm:px-5">{children}</div>
    </section>
  );
}
