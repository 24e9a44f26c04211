import type { DbKind } from "@/db/client";
import type { HealthUnderLoad } from "./event-loop";
import type { InsertCost, StatsWriteCost } from "./inserts";
import type { Latency } from "./stats";

export interface BenchResult {
  db: DbKind;
  size: number;
  /** Other users' memories in the same table. */
  otherRows: number;
  latency: Record<string, Latency>;
  /** Agreement with the in-app baseline, which scores with score.ts, the reference formula. */
  agreement?: Agreement[];
  /** EXPLAIN (ANALYZE, BUFFERS) of the two-stage pass's first stage for the first question (Postgres). */
  firstStagePlan?: string;
  inserts?: InsertCost;
  /** What memory writes pay for memory_stats's triggers (inserts.ts). */
  statsWrites?: StatsWriteCost;
  /**
   * A chat turn through the route (offline model, no delay), alone: `toModel`, from sending the request to the start
   * of its model call (its pre-model overhead); `alone`, to its first text delta; `writes`, what it spent in its
   * writes before the model call, from its spans (turn-spans.ts). `concurrent`: to the first text delta.
   */
  chatTurn?: { toModel?: Latency; alone: Latency; writes?: Latency; concurrent: Latency; concurrentUsers: number };
}

export interface Agreement {
  reference: string;
  contender: string;
  same: number;
  recall?: number;
  /** Share answered from a candidate pass, two-stage or HNSW (the rest by the exact statement). */
  candidatePass?: number;
  /** Questions an HNSW contender's index returned too few candidates for, of `answers`. */
  fallbacks?: number;
  answers?: number;
}

export interface BenchReport {
  at: string;
  embedder: string;
  questions: number;
  rounds: number;
  results: BenchResult[];
  healthUnderLoad?: HealthUnderLoad[];
}

const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

export function formatTable(report: BenchReport): string {
  const lines = [
    `Retrieval latency, ms (p50 / p95 / p99) — ${report.questions} questions × ${report.rounds}, embedder ${report.embedder}`,
  ];
  const contenders = [...new Set(report.results.flatMap((result) => Object.keys(result.latency)))];
  const header = ["db", "N per user", ...contenders];
  const rows = report.results
    .filter((result) => Object.keys(result.latency).length > 0)
    .map((result) => [
      result.db,
      result.size.toLocaleString("en"),
      ...contenders.map((name) => {
        const latency = result.latency[name];
        return latency ? `${ms(latency.p50)} / ${ms(latency.p95)} / ${ms(latency.p99)}` : "—";
      }),
    ]);
  lines.push(table(header, rows));
  const ratios = report.results.flatMap((result) => {
    const ratio = ratioOf(result);
    return ratio ? [[result.db, result.size.toLocaleString("en"), ...RATIOS.map(({ name }) => ratio[name])]] : [];
  });
  if (ratios.length > 0) {
    lines.push("", "Ratios of p95 in the same run (hybrid: the default path); each target is for the size it names");
    lines.push(table(["db", "N per user", ...RATIOS.map(({ name, target }) => `${name} (${target})`)], ratios));
  }
  const agreements = report.results.flatMap((result) => (result.agreement ?? []).map((a) => ({ result, a })));
  if (agreements.length > 0) {
    const share = (x: number | undefined) => (x === undefined ? "—" : `${(x * 100).toFixed(1)}%`);
    lines.push(
      "",
      "Top 5 identical (same memories, same order); targets at 100k: ≥ 95%, recall@5 ≥ 0.98, fallbacks ≤ 1%",
    );
    lines.push(
      table(
        ["db", "N per user", "contender = reference", "same", "recall@5", "by a candidate pass", "fallbacks"],
        agreements.map(({ result, a }) => [
          result.db,
          result.size.toLocaleString("en"),
          `${a.contender} = ${a.reference}`,
          share(a.same),
          a.recall === undefined ? "—" : a.recall.toFixed(3),
          share(a.candidatePass),
          a.fallbacks === undefined ? "—" : `${a.fallbacks} of ${a.answers}`,
        ]),
      ),
    );
  }
  const inserts = report.results.filter((result) => result.inserts);
  for (const result of inserts) {
    const cost = result.inserts as InsertCost;
    const none = cost.perRow["no retrieval index"] ?? 0;
    lines.push(
      "",
      `Insert cost, ${result.db} ${result.size.toLocaleString("en")}: ms per row (p50 of ${cost.repeats} × ${cost.rows} rows), and what the index adds`,
    );
    lines.push(
      table(
        ["indexes present", "ms per row", "added by the index"],
        Object.entries(cost.perRow).map(([name, value]) => [name, value.toFixed(3), (value - none).toFixed(3)]),
      ),
    );
  }
  for (const result of report.results) {
    const cost = result.statsWrites;
    if (!cost) continue;
    lines.push(
      "",
      `memory_stats triggers, ${result.db} ${result.size.toLocaleString("en")}: ms per row (p50 of ${cost.repeats} × ${cost.rows} rows)`,
    );
    lines.push(
      table(
        ["memories written", "with", "without", "added by the triggers"],
        Object.entries(cost.perRow).map(([way, ms]) => [
          way,
          ms.with.toFixed(3),
          ms.without.toFixed(3),
          (ms.with - ms.without).toFixed(3),
        ]),
      ),
    );
  }
  const chats = report.results.filter((result) => result.chatTurn);
  if (chats.length > 0) {
    lines.push("", "Chat turn through the route, ms (p50 / p95)");
    lines.push(
      table(
        [
          "db",
          "N per user",
          "alone, to the model call",
          "its writes before it",
          "alone, to the first token",
          "concurrent users, to the first token",
        ],
        chats.map((result) => {
          const chat = result.chatTurn as NonNullable<BenchResult["chatTurn"]>;
          return [
            result.db,
            result.size.toLocaleString("en"),
            chat.toModel ? `${ms(chat.toModel.p50)} / ${ms(chat.toModel.p95)}` : "—",
            chat.writes ? `${ms(chat.writes.p50)} / ${ms(chat.writes.p95)}` : "—",
            `${ms(chat.alone.p50)} / ${ms(chat.alone.p95)}`,
            `${ms(chat.concurrent.p50)} / ${ms(chat.concurrent.p95)} (${chat.concurrentUsers} users)`,
          ];
        }),
      ),
    );
  }
  return lines.join("\n");
}

/** The targets, stated as ratios of p95 within one run. */
const RATIOS = [
  { name: "hybrid / read", target: "≤ 1.5× at 10k" },
  { name: "exact / distance", target: "≤ 2× at 10k" },
  { name: "in-app / hybrid", target: "≥ 50× at 10k" },
  { name: "hybrid / exact", target: "≤ 10% at 100k; PGlite ≤ 50% at 10k" },
  { name: "two-stage / exact", target: "—" },
  { name: "hnsw-m16 / exact", target: "—" },
  { name: "hnsw-m32 / exact", target: "—" },
  { name: "pre-model turn / (hybrid + writes)", target: "≤ 1.5× at 1k" },
] as const;

export function ratioOf(result: BenchResult): Record<(typeof RATIOS)[number]["name"], string> | null {
  const latency = result.latency;
  if (!latency.hybrid) return null;
  const p95 = (name: string) => latency[name]?.p95;
  const x = (a: number | undefined, b: number | undefined) => (a && b ? `${(a / b).toFixed(2)}×` : "—");
  const percent = (a: number | undefined, b: number | undefined) => (a && b ? `${((a / b) * 100).toFixed(1)}%` : "—");
  return {
    "hybrid / read": x(p95("hybrid"), p95("read")),
    "exact / distance": x(p95("exact"), p95("distance")),
    "in-app / hybrid": x(p95("in-app"), p95("hybrid")),
    "hybrid / exact": percent(p95("hybrid"), p95("exact")),
    "two-stage / exact": percent(p95("two-stage"), p95("exact")),
    "hnsw-m16 / exact": percent(p95("hnsw-m16"), p95("exact")),
    "hnsw-m32 / exact": percent(p95("hnsw-m32"), p95("exact")),
    // The turn's time to its model call against the statement alone plus the writes the turn made before it.
    "pre-model turn / (hybrid + writes)": x(
      result.chatTurn?.toModel?.p95,
      result.chatTurn?.writes && (p95("hybrid") ?? 0) + result.chatTurn.writes.p95,
    ),
  };
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join("  ");
  return [line(header), widths.map((w) => "─".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

const COLORS = ["#2563eb", "#16a34a", "#dc2626", "#9333ea", "#ea580c", "#0891b2", "#ca8a04", "#db2777", "#4b5563"];

export function svgChart(report: BenchReport): string {
  const contenders = [...new Set(report.results.flatMap((result) => Object.keys(result.latency)))];
  const groups = report.results;
  const barWidth = 16;
  const groupWidth = contenders.length * barWidth + 28;
  // Wide enough for the bars and for the legend (one 110-px entry per contender).
  const width = Math.max(480, 70 + groups.length * groupWidth + 20, 70 + contenders.length * 110);
  const height = 340;
  const top = 40;
  const bottom = height - 70;
  const values = groups.flatMap((group) => Object.values(group.latency).map((latency) => latency.p95));
  const max = Math.max(10, ...values);
  const min = 0.5;
  const y = (v: number) =>
    bottom - ((Math.log10(Math.max(min, v)) - Math.log10(min)) / (Math.log10(max) - Math.log10(min))) * (bottom - top);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="system-ui, sans-serif" font-size="11">`,
    `<title>Retrieval latency by contender and size (p50 and p95, ms) — ${escapeXml(report.embedder)}</title>`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="10" y="20" font-size="13" font-weight="600">Retrieval latency (ms, log scale): p50 bar, p95 cap — ${escapeXml(report.embedder)}</text>`,
  ];
  for (let tick = 1; tick <= max * 1.01; tick *= 10) {
    parts.push(
      `<line x1="60" x2="${width - 10}" y1="${y(tick)}" y2="${y(tick)}" stroke="#e5e7eb"/>`,
      `<text x="55" y="${y(tick) + 4}" text-anchor="end" fill="#6b7280">${tick}</text>`,
    );
  }
  groups.forEach((group, g) => {
    const x0 = 70 + g * groupWidth;
    contenders.forEach((name, c) => {
      const latency = group.latency[name];
      if (!latency) return;
      const x = x0 + c * barWidth;
      const color = COLORS[c % COLORS.length];
      parts.push(
        `<rect x="${x}" y="${y(latency.p95)}" width="${barWidth - 3}" height="${bottom - y(latency.p95)}" fill="${color}" opacity="0.3"/>`,
        `<rect x="${x}" y="${y(latency.p50)}" width="${barWidth - 3}" height="${bottom - y(latency.p50)}" fill="${color}"/>`,
      );
    });
    parts.push(
      `<text x="${x0 + (contenders.length * barWidth) / 2}" y="${bottom + 16}" text-anchor="middle">${group.db}</text>`,
      `<text x="${x0 + (contenders.length * barWidth) / 2}" y="${bottom + 30}" text-anchor="middle">${group.size.toLocaleString("en")}</text>`,
    );
  });
  contenders.forEach((name, c) => {
    const x = 70 + c * 110;
    parts.push(
      `<rect x="${x}" y="${height - 22}" width="10" height="10" fill="${COLORS[c % COLORS.length]}"/>`,
      `<text x="${x + 14}" y="${height - 13}">${escapeXml(name)}</text>`,
    );
  });
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
