/**
 * Stepping between a message's versions and deleting one (docs/chat.md § Versions). The tree's
 * rules are lib/chat/branch.ts; this reads and writes it through db/queries/messages.ts.
 */
import { AppError, notFound } from "@/core/errors";
import type { Db } from "@/db/client";
import { getConversation } from "@/db/queries/conversations";
import { deleteMessage, getMessage, inConversation, listMessageTree, setCurrentMessage } from "@/db/queries/messages";
import { currentAfterDelete, currentBranch, newestLeafBelow, subtreeIds } from "./branch";

type ConversationIds = { userId: string; conversationId: string };

/** The user's conversation's current message and its message tree (404 for another's), in its lock (`inConversation`). */
async function readTree(tx: Db, ids: ConversationIds) {
  const { currentMessageId } = await getConversation(tx, ids);
  return { currentMessageId, tree: await listMessageTree(tx, ids) };
}

/** Makes the newest continuation of `messageId` the current message; false when it is not in the tree. */
async function showNewestBelow(
  db: Db,
  ids: ConversationIds,
  tree: Awaited<ReturnType<typeof listMessageTree>>,
  messageId: string,
): Promise<boolean> {
  const leaf = newestLeafBelow(tree, messageId);
  if (!leaf) return false;
  await setCurrentMessage(db, { ...ids, messageId: leaf.id });
  return true;
}

/**
 * Shows the branch through `messageId` (a message of the user's conversation, else 404
 * `not_found:message`): its newest continuation becomes the conversation's current message, which
 * the chat shows and the next message continues.
 */
export async function showVersion(
  db: Db,
  { userId, conversationId, messageId }: ConversationIds & { messageId: string },
): Promise<void> {
  const ids = { userId, conversationId };
  await inConversation(db, ids, async (tx) => {
    const { tree } = await readTree(tx, ids);
    if (!(await showNewestBelow(tx, ids, tree, messageId))) throw notFound("message");
  });
}

/**
 * Opening the chat at `messageId` (a memory's source, a search match: app/(app)/chat/[id]/page.tsx):
 * a message on another version switches the chat to that version's branch, as stepping to it
 * would. A message already on the current branch, or none of the conversation's, changes nothing.
 */
export async function showBranchOf(
  db: Db,
  { userId, conversationId, messageId }: ConversationIds & { messageId: string },
): Promise<void> {
  const ids = { userId, conversationId };
  await inConversation(db, ids, async (tx) => {
    const { currentMessageId, tree } = await readTree(tx, ids);
    if (currentBranch(tree, currentMessageId).some((m) => m.id === messageId)) return;
    await showNewestBelow(tx, ids, tree, messageId);
  });
}

/**
 * Deletes a version: the user's message and everything below it, as deleting a conversation does
 * (db/queries/messages.ts deleteMessage). When the chat showed it, the chat then shows the nearest
 * remaining version (the one before, else after), else the branch above it. Missing or foreign →
 * 404. Refused, changing nothing: an answer still streaming in it (`409 conflict:streaming`: its
 * turn is still writing it), and a question's only answer (`409 conflict:only_answer`: the next
 * message would follow the question, a question answering a question — regenerate it, or delete
 * the question). Decided and done in the conversation's lock, so parallel steps and deletes see
 * each other's result.
 */
export async function deleteVersion(
  db: Db,
  { userId, messageId }: { userId: string; messageId: string },
): Promise<{ conversationId: string }> {
  const { conversationId } = await getMessage(db, { userId, messageId });
  const ids = { userId, conversationId };
  await inConversation(db, ids, async (tx) => {
    const { currentMessageId, tree } = await readTree(tx, ids);
    const message = tree.find((m) => m.id === messageId);
    if (!message) throw notFound("message");
    const below = new Set(subtreeIds(tree, messageId));
    if (tree.some((m) => below.has(m.id) && m.status === "streaming")) {
      throw new AppError(
        "conflict:streaming",
        "An answer in this version is still being written: stop it, or wait until it ends, then delete it",
      );
    }
    const parent = tree.find((m) => m.id === message.parentMessageId);
    const versions = tree.filter((m) => m.parentMessageId === message.parentMessageId);
    if (message.role === "assistant" && parent?.role === "user" && versions.length === 1) {
      throw new AppError(
        "conflict:only_answer",
        "This is its question's only answer: regenerate it, or delete the question with its answer",
      );
    }
    const shown = currentBranch(tree, currentMessageId).at(-1)?.id;
    await deleteMessage(tx, { userId, messageId });
    if (shown === undefined || below.has(shown)) {
      await setCurrentMessage(tx, { ...ids, messageId: currentAfterDelete(tree, messageId) });
    }
  });
  return { conversationId };
}
