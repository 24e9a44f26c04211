import { ArrowLeftIcon } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requestDates } from "@/app/(app)/request-dates";
import { CandidateTable } from "@/components/debug/candidate-table";
import { ToolCallCard } from "@/components/debug/tool-calls";
import { PageHeader } from "@/components/page-header";
import { SectionCard } from "@/components/section-card";
import { Badge } from "@/components/ui/badge";
import { isAppError } from "@/core/errors";
import { getDb } from "@/db/client";
import { getMcpCall } from "@/db/queries/mcp-calls";
import { requireServerSession } from "@/lib/auth/server";
import { GET_MEMORY_CONTEXT } from "@/lib/mcp/tools";
import type { ToolCallTrace } from "@/lib/memory/retrieval/tools";
import type { ContextTrace } from "@/lib/memory/retrieval/trace";
import { formatDateTime, formatMs } from "@/lib/ui/format";

export const metadata: Metadata = { title: "External call" };
export const dynamic = "force-dynamic";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default async function ExternalCallPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const session = await requireServerSession(`/settings/external-calls/${id}`);
  if (!UUID.test(id)) notFound();
  const db = await getDb();
  const dates = await requestDates(session.id);
  const call = await getMcpCall(db, { userId: session.id, callId: id }).catch((error: unknown) => {
    if (isAppError(error) && error.code === "not_found:mcp_call") notFound();
    throw error;
  });
  return (
    <div className="mx-auto w-full max-w-5xl space-y-5 px-4 py-8 sm:px-6">
      <Link
        href="/settings/external-calls"
        className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeftIcon className="size-4" aria-hidden="true" /> External calls
      </Link>
      <PageHeader
        title={<code className="font-mono">{call.tool}</code>}
        description={
          <>
            Called by <span className="font-medium text-foreground">{call.tokenName}</span> on{" "}
            {formatDateTime(call.createdAt, dates)}, answered in {formatMs(call.latencyMs)}
            {call.isError && (
              <>
                {" "}
                <Badge variant="danger">tool error</Badge>
              </>
            )}
          </>
        }
      />
      <SectionCard id="arguments" title="Arguments" description="As the assistant sent them.">
        <pre className="overflow-x-auto rounded-lg bg-muted p-3 font-mono text-xs" data-testid="call-arguments">
          {JSON.stringify(call.arguments, null, 2)}
        </pre>
      </SectionCard>
      <SectionCard
        id="result"
        title="What it received"
        description="The tool result's text, byte for byte (a deleted memory's text is redacted)."
      >
        <pre
          className="max-h-96 overflow-auto rounded-lg bg-muted p-3 font-mono text-xs whitespace-pre-wrap break-all"
          data-testid="call-result"
        >
          {call.result}
        </pre>
      </SectionCard>
      {call.trace != null && call.tool === GET_MEMORY_CONTEXT && (
        <SectionCard
          id="candidates"
          title="Why these memories"
          description="Every candidate the chat's retrieval considered for the message, with its score and fate — the same table as an answer's Inspect view."
        >
          <CandidateTable trace={call.trace as ContextTrace} />
        </SectionCard>
      )}
      {call.trace != null && call.tool !== GET_MEMORY_CONTEXT && (
        <SectionCard
          id="tool"
          title="Why these memories"
          description="The memory tool's rule and every memory it considered."
        >
          <ToolCallCard call={call.trace as ToolCallTrace} accessesCount="per call" />
        </SectionCard>
      )}
    </div>
  );
}
