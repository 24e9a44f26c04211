import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import type { ToolCallTrace } from "@/lib/memory/retrieval/tools";
import { formatMs, formatScore } from "@/lib/ui/format";
import { FateBadge } from "./fate-badge";

const th = "px-2 py-1.5 text-left text-xs font-medium whitespace-nowrap text-muted-foreground";
const td = "px-2 py-1.5 align-top";

/**
 * One memory tool call of the answer: what the model asked for, the rule that chose the memories,
 * and every memory it considered with its numbers and fate (a search lists the ones that lost to
 * its limit and the near-misses below the threshold too).
 */
export function ToolCallCard({ call }: { call: ToolCallTrace }) {
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
        . Each returned memory counts as an access (once per answer).
      </p>
      {call.error && <p className="text-sm text-destructive">{call.error}</p>}
      {call.memories.length > 0 && (
        <div className="-mx-3 overflow-x-auto sm:mx-0">
          <table className="w-full min-w-[40rem] border-collapse text-sm">
            <thead className="border-b">
              <tr>
                <th className={th}>Memory</th>
                <th className={`${th} text-right`}>Rank</th>
                {isSearch ? (
                  <>
                    <th className={`${th} text-right`}>Similarity</th>
                    <th className={`${th} text-right`}>Relevance</th>
                    <th className={`${th} text-right`}>Score</th>
                  </>
                ) : (
                  <th className={th}>Type</th>
                )}
                <th className={`${th} text-right`}>Importance</th>
                <th className={th}>Fate</th>
              </tr>
            </thead>
            <tbody className="divide-y">
              {call.memories.map((memory) => (
                <tr
                  key={`${memory.fate}:${memory.memoryId}`}
                  data-fate={memory.fate}
                  className={memory.fate === "returned" ? "" : "text-muted-foreground"}
                >
                  <td className={`${td} max-w-80`}>
                    {memory.redacted ? (
                      <Badge variant="outline" title="Deleted since this answer; its text is no longer kept here.">
                        deleted memory
                      </Badge>
                    ) : (
                      <>
                        <Link
                          href={`/memories?id=${memory.memoryId}`}
                          className="font-medium text-foreground hover:underline"
                        >
                          {memory.title ?? "Untitled"}
                        </Link>
                        <p className="line-clamp-2 text-xs text-muted-foreground">{memory.content}</p>
                      </>
                    )}
                  </td>
                  <td className={`${td} text-right font-mono tabular-nums`}>
                    {memory.fate === "below_threshold" ? `(${memory.rank})` : memory.rank}
                  </td>
                  {isSearch ? (
                    <>
                      <td className={`${td} text-right font-mono tabular-nums`}>{formatScore(memory.similarity, 3)}</td>
                      <td className={`${td} text-right font-mono tabular-nums`}>{formatScore(memory.relevance, 3)}</td>
                      <td className={`${td} text-right font-mono tabular-nums`}>{formatScore(memory.score, 3)}</td>
                    </>
                  ) : (
                    <td className={td}>{memory.type ?? "—"}</td>
                  )}
                  <td className={`${td} text-right font-mono tabular-nums`}>{formatScore(memory.importance)}</td>
                  <td className={td}>
                    <FateBadge fate={memory.fate} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
