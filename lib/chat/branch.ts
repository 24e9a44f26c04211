/**
 * A conversation's messages form a tree (messages.parent_message_id): editing a question adds a
 * sibling of that question, regenerating an answer a sibling of that answer. The chat shows, and
 * the model receives, one branch: the path from the first message to the conversation's current
 * message (conversations.current_message_id). These functions read that tree; they take the
 * conversation's messages in any order.
 */

export interface TreeNode {
  id: string;
  parentMessageId: string | null;
  createdAt: Date | string;
}

const time = (node: TreeNode) => new Date(node.createdAt).getTime();
const byCreation = (a: TreeNode, b: TreeNode) => time(a) - time(b);

/** The children of each message (key null: the first messages), oldest first. */
function childrenOf<T extends TreeNode>(nodes: readonly T[]): Map<string | null, T[]> {
  const children = new Map<string | null, T[]>();
  for (const node of [...nodes].sort(byCreation)) {
    const siblings = children.get(node.parentMessageId) ?? [];
    siblings.push(node);
    children.set(node.parentMessageId, siblings);
  }
  return children;
}

/**
 * The newest message at the end of the branch through `id`: below it, the newest child at each
 * step (what stepping to a version shows — that version's own latest continuation).
 */
export function newestLeafBelow<T extends TreeNode>(nodes: readonly T[], id: string): T | undefined {
  const children = childrenOf(nodes);
  let node = nodes.find((n) => n.id === id);
  // A parent loop (never written by the app, but the walk must end) stops where it comes round.
  const seen = new Set<string>();
  while (node && !seen.has(node.id)) {
    seen.add(node.id);
    const next = children.get(node.id)?.at(-1);
    if (!next || seen.has(next.id)) return node;
    node = next;
  }
  return node;
}

/**
 * The branch ending at `currentId` (its newest continuation if it has children), oldest first.
 * A current id that is not among the messages (none yet, or deleted) means the newest message's.
 */
export function currentBranch<T extends TreeNode>(nodes: readonly T[], currentId: string | null): T[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const start = currentId !== null && byId.has(currentId) ? currentId : [...nodes].sort(byCreation).at(-1)?.id;
  if (start === undefined) return [];
  const path: T[] = [];
  const seen = new Set<string>();
  for (let node = newestLeafBelow(nodes, start); node && !seen.has(node.id); ) {
    seen.add(node.id);
    path.push(node);
    node = node.parentMessageId === null ? undefined : byId.get(node.parentMessageId);
  }
  return path.reverse();
}

export interface Versions {
  /** The ids of the message's versions (itself and its siblings), oldest first. */
  ids: string[];
  /** Its place among them, from 0. */
  index: number;
}

/** Each message's versions: the messages that share its parent, oldest first. */
export function versionsOf(nodes: readonly TreeNode[]): Map<string, Versions> {
  const versions = new Map<string, Versions>();
  for (const siblings of childrenOf(nodes).values()) {
    const ids = siblings.map((s) => s.id);
    siblings.forEach((s, index) => {
      versions.set(s.id, { ids, index });
    });
  }
  return versions;
}

/** The ids of `id` and every message below it (what deleting it deletes). */
export function subtreeIds(nodes: readonly TreeNode[], id: string): string[] {
  const children = childrenOf(nodes);
  const ids: string[] = [];
  const stack = [id];
  while (stack.length > 0) {
    const next = stack.pop() as string;
    ids.push(next);
    for (const child of children.get(next) ?? []) stack.push(child.id);
  }
  return ids;
}

/**
 * Where the conversation continues once `id` (and what is below it) is deleted: the newest
 * message below the nearest remaining version (the one before it, else the one after), else its
 * parent (null: nothing left above it).
 */
export function currentAfterDelete(nodes: readonly TreeNode[], id: string): string | null {
  const node = nodes.find((n) => n.id === id);
  if (!node) return null;
  const siblings = childrenOf(nodes).get(node.parentMessageId) ?? [];
  const at = siblings.findIndex((s) => s.id === id);
  const neighbour = siblings[at - 1] ?? siblings[at + 1];
  if (neighbour) return newestLeafBelow(nodes, neighbour.id)?.id ?? neighbour.id;
  return node.parentMessageId;
}
