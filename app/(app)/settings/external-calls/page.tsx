import { ArrowLeftIcon } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { requestDates } from "@/app/(app)/request-dates";
import { PageHeader } from "@/components/page-header";
import { Badge } from "@/components/ui/badge";
import { mcpCallsConfig } from "@/core/config";
import { getDb } from "@/db/client";
import { listMcpCalls } from "@/db/queries/mcp-calls";
import { requireServerSession } from "@/lib/auth/server";
import { formatDateTime, formatMs } from "@/lib/ui/format";

export const metadata: Metadata = { title: "External calls" };
export const dynamic = "force-dynamic";

export default async function ExternalCallsPage() {
  const session = await requireServerSession("/settings/external-calls");
  const db = await getDb();
  const dates = await requestDates(session.id);
  const calls = await listMcpCalls(db, { userId: session.id, limit: mcpCallsConfig.listLimit });
  return (
    <div className="mx-auto w-full max-w-3xl space-y-5 px-4 py-8 sm:px-6">
      <Link
        href="/settings#access-tokens-heading"
        className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeftIcon className="size-4" aria-hidden="true" /> Settings
      </Link>
      <PageHeader
        title="External calls"
        description={`What assistants connected with your access tokens asked Lifeline's MCP server, and exactly what they received. The ${mcpCallsConfig.listLimit} most recent.`}
      />
      {calls.length === 0 ? (
        <p className="rounded-xl border bg-card p-5 text-sm text-muted-foreground" data-testid="external-calls-empty">
          No external calls yet. Connect an assistant with an access token (docs/mcp.md) and its tool calls appear here.
        </p>
      ) : (
        <ul className="divide-y rounded-xl border bg-card" data-testid="external-calls">
          {calls.map((call) => (
            <li key={call.id}>
              <Link
                href={`/settings/external-calls/${call.id}`}
                className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3 text-sm hover:bg-muted/50"
                data-testid="external-call"
              >
                <code className="font-mono font-medium">{call.tool}</code>
                {call.isError ? (
                  <Badge variant="danger">error</Badge>
                ) : (
                  <Badge variant="success">
                    {call.returnedMemoryIds.length} {call.returnedMemoryIds.length === 1 ? "memory" : "memories"}
                  </Badge>
                )}
                <span className="text-muted-foreground">by {call.tokenName}</span>
                <span className="ml-auto text-xs text-muted-foreground">
                  {formatDateTime(call.createdAt, dates)} · {formatMs(call.latencyMs)}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
