/**
 * A conversation's messages form a tree: an edit or a regeneration adds a sibling. The chat shows, and the model
 * receives, one branch: the path to the current message. These take the messages in any order.
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

/** The end of the branch through `id`, taking the newest child at each step (what stepping to a version shows). */
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

/** The branch through `currentId`, oldest first; a current id not among the messages means the newest's. */
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
  ids: string[];
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

/** Where the chat continues once `id` is deleted: below the version before it, else after it, else its parent. */
export function currentAfterDelete(nodes: readonly TreeNode[], id: string): string | null {
  const node = nodes.find((n) => n.id === id);
  if (!node) return null;
  const siblings = childrenOf(nodes).get(node.parentMessageId) ?? [];
  const at = siblings.findIndex((s) => s.id === id);
  const neighbour = siblings[at - 1] ?? siblings[at + 1];
  if (neighbour) return newestLeafBelow(nodes, neighbour.id)?.id ?? neighbour.id;
  return node.parentMessageId;
}
