import type { SemanticConfig } from "@/lib/memory/retrieval/retrieve";
import type { CalibrationRow, SimilarityDistribution, SimilarityPercentiles } from "./calibrate";
import type { Aggregate, Summary } from "./metrics";
import { scoreQuery } from "./metrics";
import type { RunOutcome } from "./run";

export interface StrategyReport {
  name: string;
  isDefault: boolean;
  config: SemanticConfig;
  summary: Summary;
}

export interface DatasetReport {
  name: string;
  source: string;
  notes: string[];
  corpora: number;
  memories: number;
  queries: number;
  strategies: StrategyReport[];
  calibration: {
    strategy: string;
    rows: CalibrationRow[];
    /** The same, had the strategy let text matches past the threshold (fusing strategies only). */
    textBypassRows: CalibrationRow[] | null;
    /** Optional: results files written without it still load. */
    similarities?: SimilarityDistribution;
  } | null;
  timings: { loadMs: number; embedQueriesMs: number; retrieveMs: number; totalMs: number };
  perQuery: Record<string, PerQuery[]>;
}

export interface PerQuery {
  query: string;
  category: string;
  relevant: readonly string[];
  selected: readonly string[];
  hit5: number;
  hit8: number;
  mrr: number;
  latencyMs: number;
}

export interface EvalReport {
  generatedAt: string;
  embedder: string;
  database: string;
  node: string;
  datasets: DatasetReport[];
  totalMs: number;
}

export function perQuery(outcomes: readonly RunOutcome[]): PerQuery[] {
  return outcomes.map((o) => {
    const scores = scoreQuery(o);
    return {
      query: o.query,
      category: o.category,
      relevant: o.relevant,
      selected: o.ranked.slice(0, o.selectedCount),
      hit5: scores.hit5,
      hit8: scores.hit8,
      mrr: Number(scores.mrr.toFixed(4)),
      latencyMs: Number(o.latencyMs.toFixed(2)),
    };
  });
}

const num = (x: number | null, digits = 3) => (x === null || Number.isNaN(x) ? "—" : x.toFixed(digits));

export function textTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ");
  return [line(header), widths.map((w) => "─".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

const metricCells = (a: Aggregate) => [num(a.hit5), num(a.hit8), num(a.recall5), num(a.mrr), num(a.ndcg5)];

export function formatSimilarities(d: SimilarityDistribution): string {
  const rows: [string, SimilarityPercentiles | null][] = [
    ["relevant (query, judged memory)", d.relevant],
    ["unrelated (no-answer query, any memory)", d.unrelated],
    ["other non-relevant (answerable query)", d.otherNonRelevant],
    ["best memory of a no-answer query", d.noAnswerBest],
  ];
  return `Cosine similarity of pairs (percentiles)\n${textTable(
    ["pairs", "n", "p5", "p25", "p50", "p75", "p95"],
    rows
      .filter((row): row is [string, SimilarityPercentiles] => row[1] !== null)
      .map(([label, p]) => [label, String(p.pairs), num(p.p5), num(p.p25), num(p.p50), num(p.p75), num(p.p95)]),
  )}`;
}

export function formatDatasetReport(report: DatasetReport): string {
  const title = `${report.name}: ${report.queries} queries over ${report.memories} memories (${report.corpora} user${report.corpora === 1 ? "" : "s"})`;
  const comparison = textTable(
    ["strategy", "hit@5", "hit@8", "recall@5", "MRR", "nDCG@5", "empty", "no-answer empty", "p50 ms", "p95 ms"],
    report.strategies.map((s) => [
      `${s.name}${s.isDefault ? " (default)" : ""}`,
      ...metricCells(s.summary.overall),
      num(s.summary.overall.emptyShare),
      s.summary.noAnswer.queries === 0 ? "—" : num(s.summary.noAnswer.emptyShare),
      num(s.summary.latencyMs.p50, 1),
      num(s.summary.latencyMs.p95, 1),
    ]),
  );
  const categories = Object.keys(report.strategies[0]?.summary.byCategory ?? {});
  const byCategory = textTable(
    ["category", "n", ...report.strategies.flatMap((s) => [`${s.name} hit@5`, "MRR"])],
    categories.map((category) => [
      category,
      String(report.strategies[0]?.summary.byCategory[category]?.queries ?? 0),
      ...report.strategies.flatMap((s) => {
        const a = s.summary.byCategory[category];
        return a ? [num(a.hit5), num(a.mrr)] : ["—", "—"];
      }),
    ]),
  );
  const c = report.calibration;
  const bypass = c?.textBypassRows ?? null;
  const calibration = c
    ? `Calibration of ${c.strategy}: the threshold on cosine similarity${bypass ? " (right: if text matches passed it)" : ""}\n${textTable(
        [
          "threshold",
          "empty (answerable)",
          "hit@5",
          "no-answer empty",
          "unrelated pairs passing",
          ...(bypass ? ["| empty", "hit@5", "no-answer empty"] : []),
        ],
        c.rows.map((row, i) => {
          const other = bypass?.[i];
          return [
            row.threshold.toFixed(2),
            num(row.emptyShare),
            num(row.hit5),
            num(row.noAnswerEmptyShare),
            num(row.unrelatedPassShare ?? null),
            ...(other ? [`| ${num(other.emptyShare)}`, num(other.hit5), num(other.noAnswerEmptyShare)] : []),
          ];
        }),
      )}${c.similarities ? `\n\n${formatSimilarities(c.similarities)}` : ""}`
    : "";
  const t = report.timings;
  const timing = `time: ${(t.totalMs / 1000).toFixed(1)}s (store+embed memories ${(t.loadMs / 1000).toFixed(1)}s, embed queries ${(t.embedQueriesMs / 1000).toFixed(1)}s, retrieval ${(t.retrieveMs / 1000).toFixed(1)}s)`;
  return [title, ...report.notes.map((n) => `  ${n}`), "", comparison, "", byCategory, "", calibration, timing]
    .filter((part, i, all) => part !== "" || all[i - 1] !== "")
    .join("\n");
}

export function formatComparison(reports: readonly EvalReport[]): string {
  const names = [...new Set(reports.flatMap((r) => r.datasets.map((d) => d.name)))];
  const sections = names.map((name) => {
    const rows = reports.map((r) => {
      const dataset = r.datasets.find((d) => d.name === name);
      const strategy = dataset?.strategies.find((s) => s.isDefault) ?? dataset?.strategies[0];
      return { embedder: r.embedder, strategy };
    });
    const categories = [...new Set(rows.flatMap((row) => Object.keys(row.strategy?.summary.byCategory ?? {})))];
    return `${name} (${rows[0]?.strategy?.name ?? "—"}):\n${textTable(
      ["embedder", "hit@5", "MRR", "empty", "no-answer empty", ...categories],
      rows.map(({ embedder, strategy }) => {
        const summary = strategy?.summary;
        return [
          embedder,
          summary ? num(summary.overall.hit5) : "—",
          summary ? num(summary.overall.mrr) : "—",
          summary ? num(summary.overall.emptyShare) : "—",
          summary && summary.noAnswer.queries > 0 ? num(summary.noAnswer.emptyShare) : "—",
          ...categories.map((c) => {
            const a = summary?.byCategory[c];
            return a ? num(a.hit5) : "—";
          }),
        ];
      }),
    )}`;
  });
  return [`Side by side (hit@5 per category):`, ...sections].join("\n\n");
}

const COLORS = ["#64748b", "#f59e0b", "#2563eb", "#16a34a", "#db2777", "#7c3aed"];

const escapeXml = (text: string) =>
  text.replace(/[<>&"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;" })[c] ?? c);

export function svgChart(report: EvalReport): string {
  const panelHeight = 260;
  const left = 48;
  const top = 40;
  const plot = 180;
  const barWidth = 12;
  const panels = report.datasets.map((dataset) => {
    const groups = ["overall", ...Object.keys(dataset.strategies[0]?.summary.byCategory ?? {})];
    const groupWidth = dataset.strategies.length * barWidth + 24;
    return { dataset, groups, width: left + groups.length * groupWidth + 20, groupWidth };
  });
  const width = Math.max(640, ...panels.map((p) => p.width));
  const legendHeight = 28;
  const height = panels.length * panelHeight + legendHeight + 10;
  const parts: string[] = [];
  panels.forEach(({ dataset, groups, groupWidth }, p) => {
    const y0 = legendHeight + p * panelHeight;
    const base = y0 + top + plot;
    parts.push(
      `<text x="${left}" y="${y0 + 24}" font-size="14" font-weight="600">${escapeXml(dataset.name)} — hit@5 (${report.embedder})</text>`,
    );
    for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
      const y = base - tick * plot;
      parts.push(`<line x1="${left}" x2="${width - 10}" y1="${y}" y2="${y}" stroke="#e5e7eb"/>`);
      parts.push(`<text x="${left - 6}" y="${y + 4}" font-size="10" text-anchor="end">${tick.toFixed(2)}</text>`);
    }
    groups.forEach((group, g) => {
      const x0 = left + 12 + g * groupWidth;
      dataset.strategies.forEach((strategy, s) => {
        const value = group === "overall" ? strategy.summary.overall.hit5 : strategy.summary.byCategory[group]?.hit5;
        const h = (value ?? 0) * plot;
        parts.push(
          `<rect x="${x0 + s * barWidth}" y="${base - h}" width="${barWidth - 2}" height="${h}" fill="${COLORS[s % COLORS.length]}"><title>${escapeXml(`${strategy.name} ${group}: ${num(value ?? null)}`)}</title></rect>`,
        );
      });
      parts.push(
        `<text x="${x0 + (dataset.strategies.length * barWidth) / 2}" y="${base + 14}" font-size="10" text-anchor="middle">${escapeXml(group)}</text>`,
      );
    });
  });
  const strategies = report.datasets[0]?.strategies ?? [];
  strategies.forEach((strategy, s) => {
    const x = left + s * 130;
    parts.push(`<rect x="${x}" y="8" width="12" height="12" fill="${COLORS[s % COLORS.length]}"/>`);
    parts.push(
      `<text x="${x + 16}" y="18" font-size="12">${escapeXml(strategy.name + (strategy.isDefault ? " (default)" : ""))}</text>`,
    );
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif">
<rect width="100%" height="100%" fill="white"/>
${parts.join("\n")}
</svg>
`;
}
