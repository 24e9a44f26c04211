"use client";

import { ChevronRightIcon } from "lucide-react";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { cn } from "@/lib/ui/cn";

/** The fade's colour: the background the scroller sits on (static class names, for Tailwind). */
const FADE = { card: "from-card", surface: "from-surface" } as const;

/**
 * A horizontal scroller that shows it scrolls: a fade on the edge that hides more content, and
 * `data-at-start` / `data-at-end` for what sits inside (the sticky column's shadow once scrolled).
 */
export function ScrollEdges({
  tone,
  className,
  children,
}: {
  tone: keyof typeof FADE;
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ start: true, end: true });
  useEffect(() => {
    const scroller = ref.current;
    if (!scroller) return;
    // One pixel of slack: a zoomed page reports fractional scroll positions.
    const update = () =>
      setEdges({
        start: scroller.scrollLeft <= 1,
        end: scroller.scrollLeft + scroller.clientWidth >= scroller.scrollWidth - 1,
      });
    update();
    scroller.addEventListener("scroll", update, { passive: true });
    const observer = new ResizeObserver(update);
    observer.observe(scroller);
    if (scroller.firstElementChild) observer.observe(scroller.firstElementChild);
    return () => {
      scroller.removeEventListener("scroll", update);
      observer.disconnect();
    };
  }, []);
  const scrolls = !(edges.start && edges.end);
  return (
    <div
      className={cn("group/edges", className)}
      data-at-start={edges.start}
      data-at-end={edges.end}
      data-testid="scroll-edges"
    >
      {/* A fade alone is easy to miss: the cue names what is cut off, and scrolls to it. It sits on its
          own line above the table, so it covers no header and no cell; the line stays at the end. */}
      {scrolls && (
        <div className="flex h-6 items-center justify-end">
          {!edges.end && (
            <button
              type="button"
              onClick={() => ref.current?.scrollBy({ left: ref.current.clientWidth * 0.8, behavior: "smooth" })}
              className="inline-flex items-center gap-0.5 rounded-full px-2 py-0.5 text-xs text-muted-foreground hover:bg-muted hover:text-foreground"
              data-testid="scroll-more"
            >
              More columns
              <ChevronRightIcon className="size-3.5" aria-hidden="true" />
            </button>
          )}
        </div>
      )}
      <div className="relative">
        <div ref={ref} className="overflow-x-auto" data-testid="scroll-area">
          {children}
        </div>
        {!edges.end && (
          <div
            aria-hidden="true"
            className={cn(
              "pointer-events-none absolute inset-y-0 right-0 w-16 bg-linear-to-l to-transparent",
              FADE[tone],
            )}
            data-testid="scroll-fade"
          />
        )}
      </div>
    </div>
  );
}
