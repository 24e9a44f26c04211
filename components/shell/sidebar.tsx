"use client";

import { BrainIcon, LogOutIcon, SearchIcon, Settings2Icon, SquarePenIcon, ThumbsUpIcon } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useState } from "react";
import { Logo } from "@/components/logo";
import { ThemeToggle } from "@/components/theme-toggle";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { cn } from "@/lib/ui/cn";
import { groupByDate } from "@/lib/ui/date-groups";
import { signOutHere } from "@/lib/ui/sign-out";
import { ArchivedSection } from "./archived-section";
import { ConversationItemRow } from "./conversation-item";
import { useConversations } from "./conversations-context";

export interface ShellUser {
  name: string | null;
  email: string;
  /** Null until the browser reports one (components/shell/app-shell.tsx). */
  timeZone: string | null;
}

function activeConversationId(pathname: string): string | null {
  return /^\/chat\/([^/]+)/.exec(pathname)?.[1] ?? null;
}

function SearchBox() {
  const { query, setQuery } = useConversations();
  const [value, setValue] = useState(query);
  useEffect(() => {
    if (value === query) return;
    const timer = setTimeout(() => setQuery(value.trim()), 250);
    return () => clearTimeout(timer);
  }, [value, query, setQuery]);
  return (
    <div className="relative px-3">
      <SearchIcon
        className="pointer-events-none absolute top-1/2 left-5.5 size-3.5 -translate-y-1/2 text-muted-foreground"
        aria-hidden="true"
      />
      <input
        type="search"
        value={value}
        onChange={(event) => setValue(event.target.value)}
        placeholder="Search chats"
        aria-label="Search chats"
        className="h-8 w-full rounded-md border border-transparent bg-muted pr-2 pl-7.5 text-sm outline-none placeholder:text-muted-foreground focus-visible:border-ring focus-visible:bg-background focus-visible:ring-2 focus-visible:ring-ring/20"
      />
    </div>
  );
}

function ConversationList({ activeId, timeZone }: { activeId: string | null; timeZone: string | null }) {
  const { conversations, nextCursor, query, loading, error, loadMore, update, refresh } = useConversations();
  if (error) {
    return (
      <div role="alert" className="space-y-2 px-2.5 py-2 text-xs text-destructive">
        <p>Could not load your chats: {error}</p>
        <Button size="xs" variant="outline" onClick={() => void refresh()}>
          Try again
        </Button>
      </div>
    );
  }
  if (conversations.length === 0) {
    return (
      <p className="px-2.5 py-2 text-xs text-muted-foreground" aria-live="polite">
        {loading ? "Searching…" : query ? `No chats match “${query}”.` : "No chats yet. Say hello!"}
      </p>
    );
  }
  return (
    <>
      <ul className="space-y-3" aria-label="Chats" aria-busy={loading}>
        {groupByDate(conversations, (c) => new Date(c.updatedAt), new Date(), timeZone).map((group) => (
          <li key={group.label}>
            {/* The server's and the browser's clocks may straddle midnight: the browser's label wins. */}
            <h3 className="px-2.5 pb-1 text-[11px] font-medium text-muted-foreground" suppressHydrationWarning>
              {group.label}
            </h3>
            <ul className="space-y-px" aria-label={group.label}>
              {group.items.map((conversation) => (
                <ConversationItemRow
                  key={conversation.id}
                  conversation={conversation}
                  active={conversation.id === activeId}
                  onChanged={(change) => update(conversation.id, change)}
                />
              ))}
            </ul>
          </li>
        ))}
      </ul>
      {nextCursor && (
        <Button variant="ghost" size="xs" className="mt-1 w-full text-muted-foreground" onClick={() => void loadMore()}>
          Show more
        </Button>
      )}
    </>
  );
}

const navItems = [
  { href: "/memories", label: "Memories", Icon: BrainIcon },
  { href: "/settings", label: "Settings", Icon: Settings2Icon },
] as const;

/** The avatar at the foot of the sidebar: a menu with settings and sign out, like the peers'. */
function AccountMenu({ user }: { user: ShellUser }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <button
          type="button"
          aria-label={`Account: ${user.name ?? user.email}`}
          className="flex min-w-0 flex-1 items-center gap-2 rounded-md p-1 text-left hover:bg-accent"
        >
          <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-brand/15 text-sm font-semibold text-brand">
            {(user.name ?? user.email).charAt(0).toUpperCase()}
          </span>
          <span className="min-w-0 flex-1 leading-tight">
            <span className="block truncate text-sm font-medium">{user.name ?? "You"}</span>
            <span className="block truncate text-xs text-muted-foreground">{user.email}</span>
          </span>
        </button>
      </DropdownMenuTrigger>
      <DropdownMenuContent side="top" align="start" className="w-56">
        <DropdownMenuItem asChild>
          <Link href="/settings">
            <Settings2Icon aria-hidden="true" /> Settings
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link href="/messages/rated">
            <ThumbsUpIcon aria-hidden="true" /> Rated answers
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => void signOutHere()}>
          <LogOutIcon aria-hidden="true" /> Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

export function Sidebar({ user }: { user: ShellUser }) {
  const pathname = usePathname();
  const activeId = activeConversationId(pathname);

  return (
    <div className="flex h-full flex-col gap-3 py-3">
      <div className="flex items-center justify-between px-3">
        <Link href="/" className="rounded-md px-1" aria-label="Lifeline — new chat">
          <Logo />
        </Link>
        <Button asChild variant="ghost" size="icon-sm" aria-label="New chat" title="New chat">
          <Link href="/">
            <SquarePenIcon aria-hidden="true" />
          </Link>
        </Button>
      </div>

      <nav aria-label="Main" className="space-y-px px-3">
        <Link
          href="/"
          className={cn(
            "flex items-center gap-2.5 rounded-md px-2.5 py-1.5 text-sm hover:bg-accent",
            pathname === "/" && "bg-accent font-medium",
          )}
        >
          <SquarePenIcon className="size-4 text-muted-foreground" aria-hidden="true" />
          New chat
        </Link>
        {navItems.map(({ href, label, Icon }) => (
          <Link
            key={href}
            href={href}
            aria-current={pathname.startsWith(href) ? "page" : undefined}
            className={cn(
              "flex items-center gap-2.5 rounded-md px-2.5 py-1.5 text-sm hover:bg-accent",
              pathname.startsWith(href) && "bg-accent font-medium",
            )}
          >
            <Icon className="size-4 text-muted-foreground" aria-hidden="true" />
            {label}
          </Link>
        ))}
      </nav>

      <SearchBox />

      <div className="min-h-0 flex-1 overflow-y-auto px-3">
        <h2 className="px-2.5 pt-1 pb-1.5 text-xs font-medium text-muted-foreground">Chats</h2>
        <ConversationList activeId={activeId} timeZone={user.timeZone} />
        <ArchivedSection activeId={activeId} />
      </div>

      <div className="flex items-center gap-1 border-t px-3 pt-3">
        <AccountMenu user={user} />
        <ThemeToggle />
      </div>
    </div>
  );
}
