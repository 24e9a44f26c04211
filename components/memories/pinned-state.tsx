"use client";

import { PinIcon } from "lucide-react";
import { createContext, type ReactNode, useContext, useEffect, useState } from "react";

const PinnedContext = createContext<{ pinned: boolean; setPinned: (pinned: boolean) => void } | null>(null);

/**
 * A memory card's pinned state on the client. Pinning changes it here without reloading the list:
 * the list sorts pinned memories first, and re-sorting it under the pointer would leave the pointer
 * (and the keyboard's focus) on another card's Pin button. The card moves when the list is next
 * loaded; the server's value wins whenever it arrives.
 */
export function PinnedState({ pinned: stored, children }: { pinned: boolean; children: ReactNode }) {
  const [pinned, setPinned] = useState(stored);
  useEffect(() => setPinned(stored), [stored]);
  return <PinnedContext.Provider value={{ pinned, setPinned }}>{children}</PinnedContext.Provider>;
}

export function usePinned(): { pinned: boolean; setPinned: (pinned: boolean) => void } {
  const state = useContext(PinnedContext);
  if (!state) throw new Error("usePinned outside a PinnedState");
  return state;
}

export function PinnedMark() {
  const { pinned } = usePinned();
  return pinned ? <PinIcon className="size-3.5 shrink-0 text-brand" aria-label="Pinned" /> : null;
}
