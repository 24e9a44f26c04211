import Link from "next/link";
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/ui/cn";
import { ScrollEdges } from "./scroll-edges";

/** What every row of a debug table is about: one memory and what became of it. */
export interface MemoryRow {
  memoryId: string;
  title: string | null;
  content: string;
  /** Deleted since the answer: the record no longer keeps its text. */
  redacted?: boolean;
  fate: string;
}

export interface MemoryColumn<T> {
  key: string;
  /** The header, and the label of the value on a phone's card. */
  label: string;
  /** What the column means (the header's tooltip). */
  hint?: string;
  /** Right-aligned tabular figures. */
  numeric?: boolean;
  /** On a phone's card the value takes the card's whole width (the score bar). */
  wide?: boolean;
  cell: (row: T) => ReactNode;
  cellHint?: (row: T) => string | undefined;
}

const TONE = { card: "bg-card", surface: "bg-surface" } as const;

/**
 * The memories of a debug table, one markup for every width: a table whose memory column stays put
 * while the numbers scroll sideways (with a fade on the edge that hides more), and on a phone a
 * card per memory, each value under its column's label.
 */
export function MemoryRows<T extends MemoryRow>({
  rows,
  columns,
  rowKey,
  highlighted,
  details,
  minWidth,
  tone,
  testId,
}: {
  rows: readonly T[];
  columns: readonly MemoryColumn<T>[];
  rowKey: (row: T) => string;
  /** Rows that made it (the others are muted). */
  highlighted: (row: T) => boolean;
  /** More under the memory's text (the line sent to the model). */
  details?: (row: T) => ReactNode;
  /** The table's minimum width from `sm` up, a static class (`sm:min-w-[52rem]`). */
  minWidth: string;
  /** The background the table sits on: the sticky column and the fade take it. */
  tone: keyof typeof TONE;
  testId?: string;
}) {
  // Scrolled, the sticky column casts a shadow on the numbers sliding under it (a pseudo-element:
  // a table cell's own box-shadow is not drawn with border-collapse).
  const sticky = cn(
    "sm:sticky sm:left-0 sm:z-10",
    "sm:after:pointer-events-none sm:after:absolute sm:after:inset-y-0 sm:after:left-full sm:after:w-2",
    "sm:after:bg-linear-to-r sm:after:from-black/10 sm:after:to-transparent sm:after:opacity-0 sm:after:transition-opacity",
    "dark:sm:after:from-black/40 sm:group-data-[at-start=false]/edges:after:opacity-100",
    TONE[tone],
  );
  return (
    <ScrollEdges tone={tone}>
      <table className={cn("w-full border-collapse text-sm max-sm:block", minWidth)} data-testid={testId}>
        <thead className="border-b max-sm:hidden">
          <tr>
            <th
              className={cn("px-2 py-2 text-left text-xs font-medium whitespace-nowrap text-muted-foreground", sticky)}
            >
              Memory
            </th>
            {columns.map((column) => (
              <th
                key={column.key}
                title={column.hint}
                className={cn(
                  "px-2 py-2 text-xs font-medium whitespace-nowrap text-muted-foreground",
                  column.numeric ? "text-right" : "text-left",
                )}
              >
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y max-sm:flex max-sm:flex-col max-sm:gap-2 max-sm:divide-y-0">
          {rows.map((row) => (
            <tr
              key={rowKey(row)}
              data-fate={row.fate}
              className={cn(
                "max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-4 max-sm:gap-y-1.5 max-sm:rounded-lg max-sm:border max-sm:p-3",
                !highlighted(row) && "text-muted-foreground",
              )}
            >
              <td className={cn("px-2 py-2 align-top max-sm:col-span-2 max-sm:p-0 sm:max-w-72 sm:min-w-60", sticky)}>
                <MemoryCell row={row} details={details} />
              </td>
              {columns.map((column) => (
                <td
                  key={column.key}
                  data-column={column.key}
                  data-label={column.label}
                  title={column.cellHint?.(row)}
                  className={cn(
                    "px-2 py-2 align-top",
                    column.numeric && "text-right font-mono tabular-nums",
                    // The phone's card: the label, then the value at the end of the line.
                    "max-sm:flex max-sm:min-w-0 max-sm:items-center max-sm:justify-between max-sm:gap-2 max-sm:p-0",
                    "max-sm:before:font-sans max-sm:before:text-xs max-sm:before:text-muted-foreground max-sm:before:content-[attr(data-label)]",
                    column.wide && "max-sm:col-span-2",
                  )}
                >
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollEdges>
  );
}

function MemoryCell<T extends MemoryRow>({ row, details }: { row: T; details?: (row: T) => ReactNode }) {
  if (row.redacted) {
    return (
      <>
        <Badge variant="outline">deleted memory</Badge>
        <p className="mt-1 text-xs text-muted-foreground">
          Deleted since this answer; its text is no longer kept here.
        </p>
      </>
    );
  }
  return (
    <>
      <Link href={`/memories?id=${row.memoryId}`} className="font-medium text-foreground hover:underline">
        {row.title ?? "Untitled"}
      </Link>
      <p className="line-clamp-2 text-xs text-muted-foreground">{row.content}</p>
      {details?.(row)}
    </>
  );
}
