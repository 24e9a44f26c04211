// Stepping between a message's versions and deleting one (docs/chat.md § Versions); the tree's rules: branch.ts.
import { AppError, notFound } from "@/core/errors";
import type { Db } from "@/db/client";
import { getConversation } from "@/db/queries/conversations";
import { deleteMessage, getMessage, inConversation, listMessageTree, setCurrentMessage } from "@/db/queries/messages";
import { currentAfterDelete, currentBranch, newestLeafBelow, subtreeIds } from "./branch";

type ConversationIds = { userId: string; conversationId: string };

async function readTree(tx: Db, ids: ConversationIds) {
  const { currentMessageId } = await getConversation(tx, ids);
  return { currentMessageId, tree: await listMessageTree(tx, ids) };
}

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

/** Shows the branch through `messageId` (the user's, else 404): the next message continues it. */
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

/** Opening the chat at a message on another version shows that version's branch; otherwise nothing changes. */
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
 * Deletes a message and all below it; the chat then shows the nearest remaining version. Refused: an answer still
 * streaming (its turn is writing it), and a question's only answer (the next message would answer a question). In the
 * conversation's lock, so parallel steps and deletes see each other's result.
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
