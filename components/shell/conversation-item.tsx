"use client";

import { ArchiveIcon, ArchiveRestoreIcon, EllipsisIcon, PencilIcon, Trash2Icon } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { SNIPPET_END, SNIPPET_START } from "@/core/config";
import { api, errorMessage } from "@/lib/ui/api";
import { cn } from "@/lib/ui/cn";
import { plainSnippet } from "@/lib/ui/plain-snippet";
import { type ConversationItem, useConversations } from "./conversations-context";

interface Props {
  conversation: ConversationItem;
  active: boolean;
  /** Applies a saved change to the list this row is in; `null` removes the row. */
  onChanged: (change: Partial<ConversationItem> | null) => void;
}

function patch(id: string, json: Partial<Pick<ConversationItem, "title" | "archived">>) {
  return api<{ conversation: ConversationItem }>(`/api/conversations/${id}`, { method: "PATCH", json });
}

/** The words of a message that matched the search, as plain text, the matched ones highlighted. */
function MatchSnippet({ snippet }: { snippet: string }) {
  // Split on the start mark: every piece after the first begins with a match, up to the end mark.
  const [before = "", ...rest] = plainSnippet(snippet).split(SNIPPET_START);
  return (
    <span className="mt-0.5 line-clamp-2 text-xs font-normal text-muted-foreground" data-testid="search-snippet">
      {before}
      {rest.map((piece, index) => {
        const [hit = "", after = ""] = piece.split(SNIPPET_END);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one snippet never reorder
          <span key={index}>
            <mark className="rounded-sm bg-brand/20 px-0.5 text-foreground">{hit}</mark>
            {after}
          </span>
        );
      })}
    </span>
  );
}

export function ConversationItemRow({ conversation, active, onChanged }: Props) {
  const router = useRouter();
  const { refresh } = useConversations();
  const [renaming, setRenaming] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const rename = async (title: string) => {
    setRenaming(false);
    const trimmed = title.trim();
    if (!trimmed || trimmed === conversation.title) return;
    onChanged({ title: trimmed });
    try {
      await patch(conversation.id, { title: trimmed });
      toast.success("Chat renamed");
    } catch (error) {
      onChanged({ title: conversation.title });
      toast.error(`Could not rename: ${errorMessage(error)}`);
    }
  };

  const setArchived = async (archived: boolean) => {
    try {
      await patch(conversation.id, { archived });
      onChanged(null);
      if (!archived) void refresh();
      toast.success(archived ? "Chat archived" : "Chat moved back to your chats", {
        action: archived
          ? {
              label: "Undo",
              onClick: () => {
                void patch(conversation.id, { archived: false }).then(refresh);
              },
            }
          : undefined,
      });
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };

  const remove = async () => {
    setConfirmDelete(false);
    try {
      await api(`/api/conversations/${conversation.id}`, { method: "DELETE" });
      onChanged(null);
      toast.success("Chat deleted");
      if (active) router.push("/");
    } catch (error) {
      toast.error(`Could not delete: ${errorMessage(error)}`);
    }
  };

  if (renaming) {
    return (
      <li>
        <input
          // biome-ignore lint/a11y/noAutofocus: the user just asked to rename this chat
          autoFocus
          aria-label="Chat title"
          defaultValue={conversation.title}
          maxLength={100}
          className="h-8 w-full rounded-md border border-ring bg-background px-2 text-sm outline-none ring-2 ring-ring/20"
          onBlur={(event) => void rename(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter") void rename(event.currentTarget.value);
            if (event.key === "Escape") setRenaming(false);
          }}
        />
      </li>
    );
  }

  return (
    <li className="group/item relative">
      <Link
        href={
          conversation.match
            ? `/chat/${conversation.id}?message=${conversation.match.messageId}#message-${conversation.match.messageId}`
            : `/chat/${conversation.id}`
        }
        aria-current={active ? "page" : undefined}
        className={cn(
          "block rounded-md py-1.5 pr-8 pl-2.5 text-sm text-foreground/85 transition-colors hover:bg-accent hover:text-foreground",
          active && "bg-accent font-medium text-foreground",
        )}
      >
        <span className="block truncate">{conversation.title}</span>
        {conversation.match && <MatchSnippet snippet={conversation.match.snippet} />}
      </Link>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <button
            type="button"
            aria-label={`Actions for ${conversation.title}`}
            className="absolute top-1/2 right-1 flex size-6 -translate-y-1/2 items-center justify-center rounded-md text-muted-foreground opacity-100 hover:bg-background hover:text-foreground focus-visible:opacity-100 data-[state=open]:opacity-100 md:opacity-0 md:group-hover/item:opacity-100"
          >
            <EllipsisIcon className="size-4" aria-hidden="true" />
          </button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start">
          <DropdownMenuItem onSelect={() => setRenaming(true)}>
            <PencilIcon aria-hidden="true" /> Rename
          </DropdownMenuItem>
          {conversation.archived ? (
            <DropdownMenuItem onSelect={() => void setArchived(false)}>
              <ArchiveRestoreIcon aria-hidden="true" /> Unarchive
            </DropdownMenuItem>
          ) : (
            <DropdownMenuItem onSelect={() => void setArchived(true)}>
              <ArchiveIcon aria-hidden="true" /> Archive
            </DropdownMenuItem>
          )}
          <DropdownMenuSeparator />
          <DropdownMenuItem destructive onSelect={() => setConfirmDelete(true)}>
            <Trash2Icon aria-hidden="true" /> Delete
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <Dialog open={confirmDelete} onOpenChange={setConfirmDelete}>
        <DialogContent className="max-w-md">
          <DialogHeader>
            <DialogTitle>Delete this chat?</DialogTitle>
            <DialogDescription>
              “{conversation.title}” and its messages, notes and debug records will be deleted. Memories saved from it
              stay in your memories (without the link back to this chat).
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button variant="destructive" onClick={() => void remove()}>
              Delete chat
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </li>
  );
}
