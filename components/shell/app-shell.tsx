"use client";

import { MenuIcon, SquarePenIcon } from "lucide-react";
import Link from "next/link";
import { type ReactNode, useEffect, useState } from "react";
import { Logo } from "@/components/logo";
import { Button } from "@/components/ui/button";
import { Sheet, SheetContent, SheetTitle, SheetTrigger } from "@/components/ui/sheet";
import type { ConversationPage } from "@/db/queries/conversations";
import { api } from "@/lib/ui/api";
import type { Jsonify } from "@/lib/ui/json";
import { ConversationsProvider } from "./conversations-context";
import { type ShellUser, Sidebar } from "./sidebar";

export function AppShell({
  user,
  initialConversations,
  children,
}: {
  user: ShellUser;
  initialConversations: Jsonify<ConversationPage>;
  children: ReactNode;
}) {
  const [drawerOpen, setDrawerOpen] = useState(false);

  // First visit: the account takes the browser's time zone (dates and deadlines resolve in it;
  // settings can change it). Once set, the browser's is never written over it.
  useEffect(() => {
    if (user.timeZone) return;
    const detected = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (detected) void api("/api/account", { method: "PATCH", json: { timeZone: detected } }).catch(() => undefined);
  }, [user.timeZone]);

  return (
    <ConversationsProvider initial={initialConversations}>
      {/*
        The shell is exactly the viewport: the document never scrolls, only the sidebar and the page
        (main, or the chat's message list) do. `main` is positioned so that absolutely positioned
        descendants (sr-only text) are laid out and clipped inside it, not on the document.
      */}
      <div className="flex h-dvh overflow-hidden">
        <aside aria-label="Sidebar" className="hidden h-full w-68 shrink-0 border-r bg-surface md:block">
          <Sidebar user={user} />
        </aside>
        <div className="flex min-h-0 min-w-0 flex-1 flex-col">
          <header className="z-30 flex h-12 shrink-0 items-center justify-between border-b bg-background/90 px-2 backdrop-blur md:hidden">
            <Sheet open={drawerOpen} onOpenChange={setDrawerOpen}>
              <SheetTrigger asChild>
                <Button variant="ghost" size="icon" aria-label="Open sidebar">
                  <MenuIcon aria-hidden="true" />
                </Button>
              </SheetTrigger>
              <SheetContent
                aria-describedby={undefined}
                // Opening the drawer focuses the drawer itself, not its search box: on a phone a
                // focused text field pops the keyboard up over the list.
                onOpenAutoFocus={(event) => {
                  event.preventDefault();
                  (event.currentTarget as HTMLElement | null)?.focus();
                }}
                // Following a link in the drawer closes it.
                onClick={(event) => {
                  if ((event.target as HTMLElement).closest("a[href]")) setDrawerOpen(false);
                }}
              >
                <SheetTitle className="sr-only">Sidebar</SheetTitle>
                <Sidebar user={user} />
              </SheetContent>
            </Sheet>
            <Link href="/" aria-label="Lifeline home">
              <Logo />
            </Link>
            <Button asChild variant="ghost" size="icon" aria-label="New chat">
              <Link href="/">
                <SquarePenIcon aria-hidden="true" />
              </Link>
            </Button>
          </header>
          <main className="relative min-h-0 flex-1 overflow-y-auto">{children}</main>
        </div>
      </div>
    </ConversationsProvider>
  );
}
