"use client";

import { usePathname } from "next/navigation";
import { Fragment, type ReactNode, useEffect, useRef, useState } from "react";

/**
 * The new-chat page's chat, fresh on every visit of `/`. A chat started there moves the address to
 * `/chat/<id>` with `history.replaceState` (no navigation), so a later click on "New chat" is, to
 * the router, a visit of the page it is already on: it would keep the old conversation on screen.
 * The address coming back to `/` from elsewhere remounts the chat instead.
 */
export function FreshChat({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const [visit, setVisit] = useState(0);
  const previous = useRef(pathname);
  useEffect(() => {
    if (pathname === "/" && previous.current !== "/") setVisit((n) => n + 1);
    previous.current = pathname;
  }, [pathname]);
  return <Fragment key={visit}>{children}</Fragment>;
}
