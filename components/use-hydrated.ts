"use client";

import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False in the server's HTML and while it hydrates, true once the component's handlers are attached.
 * A control that would take a click or typing before then and lose it is disabled (or read-only)
 * until hydrated, so a user — and a test, whose actions wait for an enabled control — acts once
 * it works.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
