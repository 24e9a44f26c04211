/** A supersede counts only when the stored memory really is `superseded`; `assistant_suggested` candidates never count as facts. */
import { randomUUID } from "node:crypto";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { createConversation } from "@/db/queries/conversations";
import { createExtraction } from "@/db/queries/extractions";
import { insertMemory } from "@/db/queries/memories";
import { createMessage } from "@/db/queries/messages";
import { createUser } from "@/db/queries/users";
import { memories, users } from "@/db/schema";
import { runExtraction } from "@/lib/jobs/extraction-job";
import type { JobSteps, Json } from "@/lib/jobs/steps";
import type { ConsolidationDecision } from "@/lib/memory/extraction/consolidate";
import type { ExtractedMemory } from "@/lib/memory/extraction/extract";
import { embedMemoryTexts, memoryEmbeddingText } from "@/lib/memory/store/memory-store";
import {
  CONTRADICTION_CATEGORIES,
  type ExpectedAction,
  type ExtractionCase,
  type ExtractionDataset,
  matchesExpected,
  NEGATIVE_CATEGORIES,
} from "./extraction-dataset";
import { EVAL_EMAIL_DOMAIN } from "./load";
import type { RunProgress } from "./run";

export interface ExtractionEvalDeps {
  model: LanguageModelV4;
  modelId: string;
  embed: (texts: string[]) => Promise<number[][]>;
  embeddingModel: string;
}

export interface CandidateOutcome {
  content: string;
  type: string;
  deadline: string | null;
  provenance: string;
  matched: number | null;
  action: string | null;
  target: string | null;
}

export interface CaseOutcome {
  id: string;
  category: string;
  split: "dev" | "holdout";
  formerly: "holdout" | null;
  expected: number;
  matched: number;
  predicted: number;
  falsePositives: number;
  pending: number;
  decision: { action: ExpectedAction; target: string; ok: boolean; actual: string } | null;
  unexpectedChanges: string[];
  candidates: CandidateOutcome[];
  error: string | null;
  ms: number;
}

export const directSteps = (record: Map<string, unknown>): JobSteps => ({
  runner: "in-process",
  async run<T extends Json>(id: string, fn: () => Promise<T>): Promise<T> {
    const result = await fn();
    record.set(id, result);
    return result;
  },
  retryAt: () => null,
});

export async function runExtractionCase(
  db: Db,
  deps: ExtractionEvalDeps,
  c: ExtractionCase,
  currentDate: string,
): Promise<CaseOutcome> {
  const started = performance.now();
  const now = new Date(`${currentDate}T12:00:00.000Z`);
  const user = await createUser(db, {
    email: `eval-extraction-${randomUUID()}@${EVAL_EMAIL_DOMAIN}`,
    name: "eval extraction",
    passwordHash: null,
  });
  try {
    const priors = c.prior ?? [];
    const vectors = await embedMemoryTexts(
      deps.embed,
      priors.map((p) => memoryEmbeddingText({ title: p.title ?? null, content: p.content })),
    );
    const priorIdOf = new Map<string, string>();
    for (const [i, prior] of priors.entries()) {
      const row = await insertMemory(db, {
        userId: user.id,
        content: prior.content,
        title: prior.title ?? null,
        type: prior.type ?? "personal",
        embedding: vectors[i],
        embeddingModel: deps.embeddingModel,
        provenance: "user_stated",
        status: "active",
        createdAt: new Date(now.getTime() - 30 * 86_400_000),
        updatedAt: new Date(now.getTime() - 30 * 86_400_000),
      });
      priorIdOf.set(row.id, prior.id);
    }
    const conversation = await createConversation(db, { userId: user.id });
    const owner = { userId: user.id, conversationId: conversation.id };
    const userMessage = await createMessage(db, { ...owner, role: "user", content: c.user });
    const assistantMessage = await createMessage(db, { ...owner, role: "assistant", content: c.assistant });
    const { extraction } = await createExtraction(db, {
      ...owner,
      userMessageId: userMessage.id,
      assistantMessageId: assistantMessage.id,
      status: "queued",
      runner: "in-process",
    });

    const record = new Map<string, unknown>();
    let error: string | null = null;
    try {
      const outcome = await runExtraction(
        { db, model: deps.model, embed: deps.embed, embeddingModel: deps.embeddingModel, now: () => now },
        { extractionId: extraction.id },
        directSteps(record),
      );
      if (outcome.status !== "succeeded") error = `extraction ${outcome.status}`;
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    // Each step's result as the job returns it: its output beside the model calls it made.
    const candidates = (record.get("extract") as { candidates: ExtractedMemory[] } | undefined)?.candidates ?? [];
    const decisions =
      (record.get("consolidate") as { decisions: ConsolidationDecision[] } | undefined)?.decisions ?? [];
    const priorRows =
      priorIdOf.size === 0
        ? []
        : await db
            .select({ id: memories.id, status: memories.status, content: memories.content })
            .from(memories)
            .where(inArray(memories.id, [...priorIdOf.keys()]));
    const priorState = new Map(priorRows.map((row) => [priorIdOf.get(row.id) ?? row.id, row]));
    return {
      ...score(c, candidates, decisions, priorIdOf, priorState),
      error,
      ms: performance.now() - started,
    };
  } finally {
    await db.delete(users).where(eq(users.id, user.id));
  }
}

function score(
  c: ExtractionCase,
  candidates: readonly ExtractedMemory[],
  decisions: readonly ConsolidationDecision[],
  priorIdOf: ReadonlyMap<string, string>,
  priorState: ReadonlyMap<string, { status: string; content: string }>,
): Omit<CaseOutcome, "error" | "ms"> {
  const decisionOf = (index: number) => decisions.find((d) => d.candidate === index);
  // Required expectations first, so an optional one never takes the candidate a required one needs.
  const order = c.expected
    .map((e, i) => ({ e, i }))
    .sort((a, b) => Number(a.e.optional ?? false) - Number(b.e.optional ?? false));
  const taken = new Set<number>();
  const matchOf = new Map<number, number>();
  for (const { e, i } of order) {
    const index = candidates.findIndex(
      (m, k) => !taken.has(k) && m.provenance === "user_stated" && matchesExpected(m, e),
    );
    if (index >= 0) {
      taken.add(index);
      matchOf.set(index, i);
    }
  }
  const outcomes: CandidateOutcome[] = candidates.map((m, k) => {
    const d = decisionOf(k);
    return {
      content: m.content,
      type: m.type,
      deadline: m.deadline,
      provenance: m.provenance,
      matched: matchOf.get(k) ?? null,
      action: d?.action ?? null,
      target: d?.targetId ? (priorIdOf.get(d.targetId) ?? d.targetId) : null,
    };
  });
  const userStated = outcomes.filter((o) => o.provenance === "user_stated");
  const required = c.expected.filter((e) => !e.optional).length;
  const matchedRequired = [...matchOf.values()].filter((i) => !c.expected[i]?.optional).length;

  const changed = (prior: string) =>
    priorState.get(prior)?.status !== "active" ||
    outcomes.some((o) => o.target === prior && (o.action === "update" || o.action === "supersede"));
  let decision: CaseOutcome["decision"] = null;
  if (c.decision) {
    const { action, target } = c.decision;
    const on = outcomes.filter((o) => o.target === target).map((o) => o.action ?? "?");
    const status = priorState.get(target)?.status ?? "missing";
    const ok =
      action === "supersede"
        ? status === "superseded" && on.includes("supersede")
        : action === "keep"
          ? !changed(target)
          : on.includes(action) && status === "active";
    decision = { action, target, ok, actual: `${on.join(",") || "none"} (${status})` };
  }
  const expectedChange =
    c.decision && c.decision.action !== "keep" && c.decision.action !== "skip" ? c.decision.target : null;
  const unexpectedChanges = (c.prior ?? []).map((p) => p.id).filter((id) => id !== expectedChange && changed(id));

  return {
    id: c.id,
    category: c.category,
    split: c.split ?? "dev",
    formerly: c.formerly ?? null,
    expected: required,
    matched: matchedRequired,
    predicted: userStated.length,
    falsePositives: userStated.filter((o) => o.matched === null).length,
    pending: outcomes.length - userStated.length,
    decision,
    unexpectedChanges,
    candidates: outcomes,
  };
}

export interface ExtractionScores {
  cases: number;
  expected: number;
  matched: number;
  predicted: number;
  falsePositives: number;
  pending: number;
  /** matched / (matched + false positives); null when nothing was predicted or expected. */
  precision: number | null;
  /** matched / expected; null when nothing was expected. */
  recall: number | null;
  casesWithFalsePositive: number;
  decisions: number;
  decisionsOk: number;
  unexpectedChanges: number;
  errors: number;
}

export function aggregate(outcomes: readonly CaseOutcome[]): ExtractionScores {
  const sum = (f: (o: CaseOutcome) => number) => outcomes.reduce((s, o) => s + f(o), 0);
  const matched = sum((o) => o.matched);
  const expected = sum((o) => o.expected);
  const falsePositives = sum((o) => o.falsePositives);
  // True positives for precision: user-stated candidates that matched an expectation (optional ones too).
  const truePredicted = sum((o) => o.predicted - o.falsePositives);
  return {
    cases: outcomes.length,
    expected,
    matched,
    predicted: sum((o) => o.predicted),
    falsePositives,
    pending: sum((o) => o.pending),
    precision: truePredicted + falsePositives === 0 ? null : truePredicted / (truePredicted + falsePositives),
    recall: expected === 0 ? null : matched / expected,
    casesWithFalsePositive: outcomes.filter((o) => o.falsePositives > 0).length,
    decisions: outcomes.filter((o) => o.decision).length,
    decisionsOk: outcomes.filter((o) => o.decision?.ok).length,
    unexpectedChanges: sum((o) => o.unexpectedChanges.length),
    errors: outcomes.filter((o) => o.error).length,
  };
}

export interface ExtractionTargets {
  precision: boolean;
  noFalseFacts: boolean;
  recall: boolean;
  everyContradictionSuperseded: boolean;
}

export interface ExtractionReport {
  dataset: string;
  source: string;
  model: string;
  embedder: string;
  database: string;
  split: "all" | "dev" | "holdout";
  currentDate: string;
  overall: ExtractionScores;
  bySplit: Record<"dev" | "holdout", ExtractionScores>;
  formerlyHoldout: ExtractionScores;
  byCategory: Record<string, ExtractionScores>;
  negative: ExtractionScores;
  contradictions: {
    cases: number;
    superseded: number;
    rate: number | null;
    bySplit: Record<"dev" | "holdout" | "formerlyHoldout", { cases: number; superseded: number }>;
  };
  targets: ExtractionTargets;
  perCase: CaseOutcome[];
  totalMs: number;
}

export const EXTRACTION_TARGETS = { precision: 0.95, recall: 0.8 } as const;

export function summariseExtraction(
  outcomes: readonly CaseOutcome[],
  meta: Pick<ExtractionReport, "dataset" | "source" | "model" | "embedder" | "database" | "split" | "currentDate">,
  totalMs: number,
): ExtractionReport {
  const categories = [...new Set(outcomes.map((o) => o.category))].sort();
  const isNegative = (o: CaseOutcome) => (NEGATIVE_CATEGORIES as readonly string[]).includes(o.category);
  const contradictions = outcomes.filter((o) => (CONTRADICTION_CATEGORIES as readonly string[]).includes(o.category));
  const superseded = contradictions.filter((o) => o.decision?.ok).length;
  const overall = aggregate(outcomes);
  const negative = aggregate(outcomes.filter(isNegative));
  return {
    ...meta,
    overall,
    bySplit: {
      dev: aggregate(outcomes.filter((o) => o.split === "dev")),
      holdout: aggregate(outcomes.filter((o) => o.split === "holdout")),
    },
    formerlyHoldout: aggregate(outcomes.filter((o) => o.formerly === "holdout")),
    byCategory: Object.fromEntries(categories.map((c) => [c, aggregate(outcomes.filter((o) => o.category === c))])),
    negative,
    contradictions: {
      cases: contradictions.length,
      superseded,
      rate: contradictions.length === 0 ? null : superseded / contradictions.length,
      bySplit: {
        dev: supersededOf(contradictions.filter((o) => o.split === "dev")),
        holdout: supersededOf(contradictions.filter((o) => o.split === "holdout")),
        formerlyHoldout: supersededOf(contradictions.filter((o) => o.formerly === "holdout")),
      },
    },
    targets: {
      precision: (overall.precision ?? 1) >= EXTRACTION_TARGETS.precision,
      noFalseFacts: negative.falsePositives === 0,
      recall: (overall.recall ?? 1) >= EXTRACTION_TARGETS.recall,
      everyContradictionSuperseded: superseded === contradictions.length,
    },
    perCase: [...outcomes],
    totalMs,
  };
}

const supersededOf = (cases: readonly CaseOutcome[]) => ({
  cases: cases.length,
  superseded: cases.filter((o) => o.decision?.ok).length,
});

const silent: RunProgress = { start: () => {}, tick: () => {} };

export async function evaluateExtraction(
  db: Db,
  dataset: ExtractionDataset,
  deps: ExtractionEvalDeps,
  options: {
    database: string;
    split?: "all" | "dev" | "holdout";
    limit?: number;
    ids?: readonly string[];
    progress?: RunProgress;
  },
): Promise<ExtractionReport> {
  const started = performance.now();
  const split = options.split ?? "all";
  const progress = options.progress ?? silent;
  const cases = dataset.cases
    .filter((c) => split === "all" || (c.split ?? "dev") === split)
    .filter((c) => !options.ids || options.ids.includes(c.id))
    .slice(0, options.limit);
  progress.start(cases.length, "extraction");
  const outcomes: CaseOutcome[] = [];
  for (const c of cases) {
    outcomes.push(await runExtractionCase(db, deps, c, dataset.currentDate));
    progress.tick(1);
  }
  return summariseExtraction(
    outcomes,
    {
      dataset: dataset.name,
      source: dataset.source,
      model: deps.modelId,
      embedder: deps.embeddingModel,
      database: options.database,
      split,
      currentDate: dataset.currentDate,
    },
    performance.now() - started,
  );
}

const fmt = (value: number | null) => (value === null ? "—" : value.toFixed(3));

export function formatExtractionReport(report: ExtractionReport, options: { misses?: boolean } = {}): string {
  const header = [
    "category",
    "cases",
    "expected",
    "matched",
    "user_stated",
    "false",
    "pending",
    "precision",
    "recall",
    "decisions ok",
  ];
  const row = (name: string, s: ExtractionScores) => [
    name,
    String(s.cases),
    String(s.expected),
    String(s.matched),
    String(s.predicted),
    String(s.falsePositives),
    String(s.pending),
    fmt(s.precision),
    fmt(s.recall),
    s.decisions === 0 ? "—" : `${s.decisionsOk}/${s.decisions}`,
  ];
  const rows = [
    ...Object.entries(report.byCategory).map(([name, s]) => row(name, s)),
    row("(dev)", report.bySplit.dev),
    ...(report.formerlyHoldout.cases > 0 ? [row("(dev, formerly holdout)", report.formerlyHoldout)] : []),
    row("(holdout)", report.bySplit.holdout),
    row("overall", report.overall),
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join(" | ")} |`;
  const table = [
    line(header),
    `|${widths.map((w, i) => (i === 0 ? `${"-".repeat(w + 1)}-` : `${"-".repeat(w + 1)}:`)).join("|")}|`,
    ...rows.map(line),
  ];
  const { contradictions, negative, targets, overall } = report;
  const mark = (ok: boolean) => (ok ? "ok  " : "MISS");
  const out = [
    `Extraction — ${report.dataset}: ${report.overall.cases} cases (split ${report.split}), model ${report.model}, embedder ${report.embedder}, ${report.database}`,
    "",
    ...table,
    "",
    `contradictions superseded: ${contradictions.superseded}/${contradictions.cases} (${fmt(contradictions.rate)}); dev ${contradictions.bySplit.dev.superseded}/${contradictions.bySplit.dev.cases}${contradictions.bySplit.formerlyHoldout.cases > 0 ? ` (formerly holdout ${contradictions.bySplit.formerlyHoldout.superseded}/${contradictions.bySplit.formerlyHoldout.cases})` : ""}, holdout ${contradictions.bySplit.holdout.superseded}/${contradictions.bySplit.holdout.cases}`,
    `user-stated memories from questions, hypotheticals, assistant-only claims and small talk: ${negative.falsePositives} (in ${negative.casesWithFalsePositive} of ${negative.cases} cases)`,
    `stored memories changed without reason: ${overall.unexpectedChanges}; errors: ${overall.errors}`,
    "",
    `targets: [${mark(targets.precision)}] precision ≥ ${EXTRACTION_TARGETS.precision} (${fmt(overall.precision)})  [${mark(targets.noFalseFacts)}] no false facts  [${mark(targets.recall)}] recall ≥ ${EXTRACTION_TARGETS.recall} (${fmt(overall.recall)})  [${mark(targets.everyContradictionSuperseded)}] every contradiction superseded`,
  ];
  if (options.misses) {
    const misses = report.perCase.filter(
      (o) =>
        o.matched < o.expected ||
        o.falsePositives > 0 ||
        (o.decision && !o.decision.ok) ||
        o.unexpectedChanges.length > 0 ||
        o.error,
    );
    out.push("", `misses (${misses.length}):`);
    for (const o of misses) {
      const got = o.candidates.map(
        (m) =>
          `${m.provenance === "user_stated" ? "" : "(pending) "}${m.type}: ${m.content}${m.deadline ? ` [${m.deadline}]` : ""}${m.action ? ` → ${m.action}${m.target ? ` ${m.target}` : ""}` : ""}`,
      );
      const decision =
        o.decision && !o.decision.ok
          ? `; expected ${o.decision.action} ${o.decision.target}, got ${o.decision.actual}`
          : "";
      const changed = o.unexpectedChanges.length ? `; changed ${o.unexpectedChanges.join(",")}` : "";
      out.push(
        `  ${o.id} [${o.category}${o.split === "holdout" ? ", holdout" : ""}] matched ${o.matched}/${o.expected}, false ${o.falsePositives}${decision}${changed}${o.error ? `; error ${o.error}` : ""}`,
      );
      for (const g of got) out.push(`      ${g}`);
    }
  }
  return out.join("\n");
}
