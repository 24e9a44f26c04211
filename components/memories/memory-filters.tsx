"use client";

import { ScanSearchIcon, SearchIcon, SlidersHorizontalIcon, XIcon } from "lucide-react";
import Form from "next/form";
import Link from "next/link";
import { type ReactNode, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input, NativeSelect } from "@/components/ui/input";
import {
  MEMORY_TYPE_OPTIONS,
  PROVENANCE_LABELS,
  PROVENANCE_OPTIONS,
  SORT_LABELS,
  STATUS_LABELS,
  STATUS_OPTIONS,
  TYPE_LABELS,
} from "./labels";

export interface FilterValues {
  q?: string;
  match?: "text" | "semantic";
  type?: string;
  tag?: string;
  provenance?: string;
  status?: string;
  pinned?: boolean;
  sort?: string;
}

const selectClass = "h-8 w-full text-[13px] sm:w-auto";

/** The filters applied besides the search words (what the Filters button counts). */
function filterCount(values: FilterValues): number {
  return [values.type, values.tag, values.provenance, values.status, values.pinned, values.sort].filter(
    (v) => v !== undefined && v !== "",
  ).length;
}

/**
 * Search on one line; the filters and the preview ("What would Lifeline remember for…") one click
 * away, so the memories themselves come first. Search and filters are a GET form (works without
 * JavaScript; with it, next/form navigates client-side); a collapsed panel's selects still take
 * part in it. Changing a select applies it at once. Filters in force keep their panel open.
 */
export function MemoryFilters({ values, preview }: { values: FilterValues; preview: ReactNode }) {
  const active = Object.values(values).some((v) => v !== undefined && v !== "");
  const filters = filterCount(values);
  const [open, setOpen] = useState<"filters" | "preview" | null>(filters > 0 ? "filters" : null);
  const toggle = (panel: "filters" | "preview") => setOpen((current) => (current === panel ? null : panel));
  return (
    <div className="space-y-2">
      <Form
        action="/memories"
        className="space-y-2"
        onChange={(event) => {
          const target = event.target as HTMLElement;
          if (target.tagName !== "SELECT") return;
          // The sort box takes part in the query once the user picks an order (see below).
          if (target instanceof HTMLSelectElement && target.dataset.param) target.name = target.dataset.param;
          event.currentTarget.requestSubmit();
        }}
        role="search"
        aria-label="Search and filter memories"
      >
        <div className="flex flex-wrap gap-2">
          <div className="relative min-w-0 basis-full sm:flex-1 sm:basis-auto">
            <SearchIcon
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
              aria-hidden="true"
            />
            <Input
              type="search"
              name="q"
              defaultValue={values.q}
              placeholder="Search memories"
              aria-label="Search memories"
              className="pl-9"
            />
          </div>
          <NativeSelect
            name="match"
            defaultValue={values.match ?? "text"}
            aria-label="Search by"
            className="flex-1 sm:flex-none"
          >
            <option value="text">Words</option>
            <option value="semantic">Meaning</option>
          </NativeSelect>
          {/* A phone's keyboard has its own search key. */}
          <Button type="submit" variant="secondary" className="max-sm:hidden">
            Search
          </Button>
          <Button
            type="button"
            variant={open === "filters" ? "secondary" : "outline"}
            aria-expanded={open === "filters"}
            aria-controls="memory-filters"
            onClick={() => toggle("filters")}
          >
            <SlidersHorizontalIcon aria-hidden="true" />
            Filters{filters > 0 ? ` (${filters})` : ""}
          </Button>
          <Button
            type="button"
            variant={open === "preview" ? "secondary" : "outline"}
            aria-expanded={open === "preview"}
            aria-controls="preview-panel"
            onClick={() => toggle("preview")}
          >
            <ScanSearchIcon aria-hidden="true" />
            Preview
          </Button>
        </div>
        <div
          id="memory-filters"
          hidden={open !== "filters"}
          className="grid grid-cols-2 items-center gap-2 rounded-xl border bg-card p-2 sm:flex sm:flex-wrap"
        >
          <NativeSelect name="type" defaultValue={values.type ?? ""} aria-label="Type" className={selectClass}>
            <option value="">All types</option>
            {MEMORY_TYPE_OPTIONS.map((type) => (
              <option key={type} value={type}>
                {TYPE_LABELS[type]}
              </option>
            ))}
          </NativeSelect>
          <NativeSelect
            name="provenance"
            defaultValue={values.provenance ?? ""}
            aria-label="Source"
            className={selectClass}
          >
            <option value="">Any source</option>
            {PROVENANCE_OPTIONS.map((provenance) => (
              <option key={provenance} value={provenance}>
                {PROVENANCE_LABELS[provenance].label}
              </option>
            ))}
          </NativeSelect>
          <NativeSelect name="status" defaultValue={values.status ?? ""} aria-label="Status" className={selectClass}>
            <option value="">Active & waiting</option>
            {STATUS_OPTIONS.map((status) => (
              <option key={status} value={status}>
                {STATUS_LABELS[status]}
              </option>
            ))}
          </NativeSelect>
          <NativeSelect
            name="pinned"
            defaultValue={values.pinned === undefined ? "" : String(values.pinned)}
            aria-label="Pinned"
            className={selectClass}
          >
            <option value="">Pinned or not</option>
            <option value="true">Pinned only</option>
            <option value="false">Not pinned</option>
          </NativeSelect>
          {/* Until an order is picked, the sort box shows what applies — relevance for a search, else
            most recent — and sends nothing, so a new search is ranked by relevance. */}
          <NativeSelect
            name={values.sort ? "sort" : undefined}
            data-param="sort"
            defaultValue={values.sort ?? (values.q ? "relevance" : "recent")}
            aria-label="Sort"
            className={selectClass}
          >
            {Object.entries(SORT_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </NativeSelect>
          <Input
            name="tag"
            defaultValue={values.tag}
            placeholder="Tag"
            aria-label="Tag"
            className="h-8 w-28 text-[13px]"
          />
          {active && (
            <Button asChild variant="ghost" size="sm">
              <Link href="/memories">
                <XIcon aria-hidden="true" />
                Clear
              </Link>
            </Button>
          )}
        </div>
      </Form>
      <div id="preview-panel" hidden={open !== "preview"}>
        {preview}
      </div>
    </div>
  );
}
