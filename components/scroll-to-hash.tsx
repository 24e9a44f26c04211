"use client";

import { useEffect } from "react";

/**
 * Scrolls to the element the URL's #fragment names once the page has rendered. A client-side
 * navigation to `/page#section` scrolls before a streamed page (one with a loading state) has put
 * the section in the document, and then never again; this puts the reader where the link said.
 */
export function ScrollToHash() {
  useEffect(() => {
    const id = decodeURIComponent(window.location.hash.slice(1));
    if (id) document.getElementById(id)?.scrollIntoView({ block: "start" });
  }, []);
  return null;
}
