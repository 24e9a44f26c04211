"use client";

import { useEffect } from "react";

const visible = () => document.visibilityState === "visible";

/**
 * Runs `run` once, `delayMs` after it is given (null: nothing to run), while the page is visible. A tab left open
 * in the background reads nothing; when it is shown again, `run` runs at once, so what changed meanwhile is shown
 * first. Pollers give a new `run` after each read, which schedules the next.
 */
export function useVisibleTimeout(run: (() => void) | null, delayMs: number): void {
  useEffect(() => {
    if (!run) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const whenShown = () => {
      if (!visible()) return;
      document.removeEventListener("visibilitychange", whenShown);
      run();
    };
    const due = () => {
      if (visible()) run();
      else document.addEventListener("visibilitychange", whenShown);
    };
    if (visible()) timer = setTimeout(due, delayMs);
    else document.addEventListener("visibilitychange", whenShown);
    return () => {
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", whenShown);
    };
  }, [run, delayMs]);
}
