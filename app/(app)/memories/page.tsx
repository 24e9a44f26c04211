import { DownloadIcon, PlusIcon } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { requestDates } from "@/app/(app)/request-dates";
import { DeleteAllDialog } from "@/components/memories/delete-all-dialog";
import { HandoutDialog } from "@/components/memories/handout-dialog";
import { ImportsUnderWay } from "@/components/memories/imports-under-way";
import { MemoryCard } from "@/components/memories/memory-card";
import { type FilterValues, MemoryFilters } from "@/components/memories/memory-filters";
import { MemoryFormDialog } from "@/components/memories/memory-form-dialog";
import { Pagination } from "@/components/memories/pagination";
import { PreviewBox } from "@/components/memories/preview-box";
import { PageHeader } from "@/components/page-header";
import { SectionCard } from "@/components/section-card";
import { Button, buttonVariants } from "@/components/ui/button";
import { importConfig, retrievalConfig } from "@/core/config";
import { type Db, getDb } from "@/db/client";
import { listImports } from "@/db/queries/imports";
import { getListedMemory, listMemories, type MemoryPage, type MemorySort } from "@/db/queries/memory-list";
import { countAwaitingEmbedder } from "@/db/queries/reembed";
import { getAiRegistry } from "@/lib/ai/registry";
import { requireServerSession } from "@/lib/auth/server";
import { processSimilarityThreshold } from "@/lib/runtime";
import { memoryListQuery } from "@/lib/validation/memories";

export const metadata: Metadata = { title: "Memories" };
export const dynamic = "force-dynamic";

const ORDER_NOTES: Record<MemorySort, string> = {
  recent: "pinned first, then most recent",
  relevance: "most relevant first",
  importance: "most important first, pinned or not",
  used: "most used first, pinned or not",
};

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const PAGE_SIZE = 20;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An empty select submits `type=`. */
function cleanParams(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(raw).flatMap(([key, value]) => {
      const first = Array.isArray(value) ? value[0] : value;
      return first?.trim() ? [[key, first.trim()]] : [];
    }),
  );
}

type Listing = { kind: "page"; page: MemoryPage } | { kind: "error"; message: string };

async function loadPage(db: Db, userId: string, params: Record<string, string>): Promise<Listing> {
  const { id: _id, ...listParams } = params;
  const parsed = memoryListQuery.safeParse(listParams);
  if (!parsed.success) return { kind: "error", message: "Some filters are not valid; clear them and try again." };
  const { match, ...filters } = parsed.data;
  let semantic: { embedding: number[]; embeddingModel: string } | undefined;
  if (match === "semantic" && filters.q) {
    try {
      const ai = getAiRegistry();
      semantic = { embedding: await ai.embedText(filters.q), embeddingModel: ai.embedder.model };
    } catch (error) {
      // Never shown as "no memories": the search could not run.
      return { kind: "error", message: `Search by meaning failed: ${error instanceof Error ? error.message : error}` };
    }
  }
  return {
    kind: "page",
    page: await listMemories(db, {
      userId,
      ...filters,
      semantic,
      minSimilarity: semantic ? processSimilarityThreshold(semantic.embeddingModel) : undefined,
      pageSize: filters.pageSize ?? PAGE_SIZE,
    }),
  };
}

export default async function MemoriesPage({ searchParams }: { searchParams: SearchParams }) {
  const session = await requireServerSession("/memories");
  const params = cleanParams(await searchParams);
  const db = await getDb();
  const single =
    params.id && UUID.test(params.id)
      ? await getListedMemory(db, { userId: session.id, memoryId: params.id })
      : undefined;
  const listing = single === undefined ? await loadPage(db, session.id, params) : null;
  // Retrieval cannot compare another embedder's memories until they are re-embedded.
  const embedder = getAiRegistry().embedder.model;
  const waiting = await countAwaitingEmbedder(db, { model: embedder, userId: session.id, statuses: ["active"] });
  const dates = await requestDates(session.id);
  const underWay = await listImports(db, { userId: session.id, limit: importConfig.listed, underWay: true });
  const values: FilterValues = {
    q: params.q,
    match: params.match === "semantic" ? "semantic" : undefined,
    type: params.type,
    tag: params.tag,
    provenance: params.provenance,
    status: params.status,
    pinned: params.pinned === undefined ? undefined : params.pinned === "true",
    sort: params.sort,
  };
  const filtered = Object.keys(params).some((key) => key !== "page");
  const sorted: MemorySort =
    values.sort && values.sort in ORDER_NOTES ? (values.sort as MemorySort) : values.q ? "relevance" : "recent";
  const order = sorted === "relevance" && !values.q ? "recent" : sorted;

  return (
    <div className="mx-auto w-full max-w-4xl space-y-3 px-4 py-5 sm:px-6 sm:py-6">
      <PageHeader
        title="Memories"
        description={
          <span data-testid="pin-explanation" className="max-sm:hidden">
            What Lifeline remembers about you. A pinned memory is in every chat, whatever you ask (the{" "}
            {retrievalConfig.pinnedLimit} most important pinned ones).
          </span>
        }
        actions={
          <>
            <MemoryFormDialog
              trigger={
                <Button size="sm">
                  <PlusIcon aria-hidden="true" />
                  Add memory
                </Button>
              }
            />
            <HandoutDialog />
            <a href="/api/memories/export" download className={buttonVariants({ variant: "outline", size: "sm" })}>
              <DownloadIcon aria-hidden="true" />
              <span className="max-sm:sr-only">Export JSON</span>
            </a>
            <DeleteAllDialog />
          </>
        }
      />

      <ImportsUnderWay
        initial={underWay.map(({ startedAt: _started, finishedAt: _finished, ...row }) => ({
          ...row,
          createdAt: row.createdAt.toISOString(),
        }))}
      />
      {waiting > 0 && (
        <p
          role="status"
          data-testid="reembed-notice"
          className="rounded-xl border border-amber-600/25 bg-amber-50 p-4 text-sm text-amber-900 dark:bg-amber-950/40 dark:text-amber-200"
        >
          {waiting === 1 ? "1 memory is" : `${waiting} memories are`} waiting to be re-embedded with{" "}
          <code className="font-mono text-xs">{embedder}</code>, the embedding model now configured: until then, chats
          cannot find {waiting === 1 ? "it" : "them"} by meaning. Lifeline re-embeds them in the background after the
          model changes (or run <code className="font-mono text-xs">npm run memories:reembed</code>).
        </p>
      )}

      <MemoryFilters
        values={values}
        preview={
          <SectionCard
            id="preview"
            title="What would Lifeline remember for…"
            description="Type a message to see which memories a chat turn would put in the prompt — and why the others would not. Nothing is sent to a model."
          >
            <PreviewBox />
          </SectionCard>
        }
      />

      {single !== undefined ? (
        <div className="space-y-3">
          <p className="text-sm text-muted-foreground">
            Showing one memory.{" "}
            <Link href="/memories" className="text-brand hover:underline">
              Show all
            </Link>
          </p>
          {single ? (
            <div className="rounded-xl border bg-card">
              <MemoryCard memory={single} dates={dates} highlighted />
            </div>
          ) : (
            <p className="rounded-xl border border-dashed p-8 text-center text-sm text-muted-foreground">
              This memory no longer exists.
            </p>
          )}
        </div>
      ) : listing?.kind === "error" ? (
        <p
          role="alert"
          className="rounded-xl border border-destructive/30 bg-red-50 p-4 text-sm text-red-900 dark:bg-red-950/40 dark:text-red-200"
        >
          {listing.message}
        </p>
      ) : listing ? (
        <div className="space-y-3">
          <p className="text-sm text-muted-foreground" aria-live="polite" data-testid="memory-count">
            {listing.page.total === 0
              ? ""
              : `${listing.page.total} ${listing.page.total === 1 ? "memory" : "memories"}${filtered ? " match" : ""}, ${ORDER_NOTES[order]}.`}
          </p>
          {listing.page.hidden > 0 && (
            <p className="text-sm text-muted-foreground" data-testid="hidden-below-threshold">
              {listing.page.hidden === 1 ? "1 weaker match is" : `${listing.page.hidden} weaker matches are`} hidden:
              below the similarity threshold ({processSimilarityThreshold(getAiRegistry().embedder.model).toFixed(2)})
              that chat retrieval uses.
            </p>
          )}
          {listing.page.memories.length === 0 ? (
            <div className="rounded-xl border border-dashed p-10 text-center">
              <p className="font-medium">{filtered ? "No memories match these filters." : "No memories yet."}</p>
              <p className="mt-1 text-sm text-muted-foreground">
                {filtered
                  ? "Try other words, or search by meaning."
                  : "Tell Lifeline about yourself in a chat, or add a memory by hand."}
              </p>
              {filtered && (
                <Link href="/memories" className={`${buttonVariants({ variant: "outline", size: "sm" })} mt-4`}>
                  Clear filters
                </Link>
              )}
            </div>
          ) : (
            <ul className="divide-y rounded-xl border bg-card" aria-label="Memories">
              {listing.page.memories.map((memory) => (
                <li key={memory.id}>
                  <MemoryCard memory={memory} dates={dates} />
                </li>
              ))}
            </ul>
          )}
          <Pagination
            page={listing.page.page}
            pageSize={listing.page.pageSize}
            total={listing.page.total}
            params={params}
          />
        </div>
      ) : null}
    </div>
  );
}
