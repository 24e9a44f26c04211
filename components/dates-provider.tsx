"use client";

import { createContext, type ReactNode, useContext } from "react";
import type { DateContext } from "@/lib/ui/format";

const Dates = createContext<DateContext | null>(null);

/**
 * The signed-in user's locale and time zone for client components, given by the app layout (which
 * reads them on the server), so the server's render and the browser's show the same date.
 */
export function DatesProvider({ value, children }: { value: DateContext; children: ReactNode }) {
  return <Dates.Provider value={value}>{children}</Dates.Provider>;
}

export function useDates(): DateContext {
  const dates = useContext(Dates);
  if (!dates) throw new Error("useDates() needs a <DatesProvider> (app/(app)/layout.tsx gives one)");
  return dates;
}
