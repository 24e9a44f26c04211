import { Badge } from "@/components/ui/badge";
import type { ToolCallTrace } from "@/lib/memory/retrieval/tools";
import { formatMs, formatScore } from "@/lib/ui/format";
import { FateBadge } from "./fate-badge";
import { type MemoryColumn, MemoryRows } from "./memory-rows";

type ToolMemory = ToolCallTrace["memories"][number];

const rank: MemoryColumn<ToolMemory> = {
  key: "rank",
  label: "Rank",
  numeric: true,
  cell: (memory) => (memory.fate === "below_threshold" ? `(${memory.rank})` : memory.rank),
};
const importance: MemoryColumn<ToolMemory> = {
  key: "importance",
  label: "Importance",
  numeric: true,
  cell: (memory) => formatScore(memory.importance),
};
const fate: MemoryColumn<ToolMemory> = {
  key: "fate",
  label: "Fate",
  cell: (memory) => <FateBadge fate={memory.fate} />,
};

/** A search's rows carry its numbers; a listing's, the memory's type. */
const SEARCH_COLUMNS: MemoryColumn<ToolMemory>[] = [
  rank,
  { key: "similarity", label: "Similarity", numeric: true, cell: (memory) => formatScore(memory.similarity, 3) },
  { key: "relevance", label: "Relevance", numeric: true, cell: (memory) => formatScore(memory.relevance, 3) },
  { key: "score", label: "Score", numeric: true, cell: (memory) => formatScore(memory.score, 3) },
  importance,
  fate,
];
const LIST_COLUMNS: MemoryColumn<ToolMemory>[] = [
  rank,
  { key: "type", label: "Type", cell: (memory) => memory.type ?? "—" },
  importance,
  fate,
];

/**
 * One memory tool call of the answer: what the model asked for, the rule that chose the memories,
 * and every memory it considered with its numbers and fate (a search lists the ones that lost to
 * its limit and the near-misses below the threshold too).
 */
export function ToolCallCard({
  call,
  accessesCount,
}: {
  call: ToolCallTrace;
  /** What an access is counted once per: an answer's tool calls, or an external (MCP) call. */
  accessesCount: "per answer" | "per call";
}) {
  const isSearch = call.tool === "search_memories";
  return (
    <div className="space-y-2 rounded-lg border border-l-4 border-l-semantic bg-surface p-3" data-testid="tool-call">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <span className="font-semibold tracking-wide uppercase">tool call</span>
        <code className="font-mono text-sm">
          {call.tool}({JSON.stringify(call.input)})
        </code>
        {call.status === "ok" ? (
          <Badge variant="success" data-testid="tool-call-returned">
            {call.returned} returned
          </Badge>
        ) : (
          <Badge variant="danger">failed</Badge>
        )}
        <span className="text-muted-foreground">
          {/* An MCP call (step 0) follows no model call of Lifeline's. */}
          {call.step > 0 ? `after model call ${call.step} · ` : ""}
          {formatMs(call.ms)}
        </span>
      </div>
      <p className="text-xs text-muted-foreground" data-testid="tool-call-rule">
        {isSearch ? "Search" : "Listing"}: {call.rule}
        {call.matching !== undefined && call.matching > call.returned
          ? ` — ${call.matching} memories matched, the first ${call.returned} were returned`
          : ""}
        . Each returned memory counts as an access (once {accessesCount}).
      </p>
      {call.error && <p className="text-sm text-destructive">{call.error}</p>}
      {call.memories.length > 0 && (
        <MemoryRows
          rows={call.memories}
          columns={isSearch ? SEARCH_COLUMNS : LIST_COLUMNS}
          rowKey={(memory) => `${memory.fate}:${memory.memoryId}`}
          highlighted={(memory) => memory.fate === "returned"}
          minWidth="sm:min-w-[40rem]"
          tone="surface"
        />
      )}
    </div>
  );
}
