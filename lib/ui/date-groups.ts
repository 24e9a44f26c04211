import { calendarDateIn } from "@/core/time-zone";

/** The same rule on the server and in the browser, so both render the same groups. */
export function dateGroupLabel(at: Date, now: Date, timeZone: string | null | undefined): string {
  const days = daysBetween(calendarDateIn(at, timeZone), calendarDateIn(now, timeZone));
  if (days <= 0) return "Today";
  if (days === 1) return "Yesterday";
  if (days <= 7) return "Previous 7 days";
  if (days <= 30) return "Previous 30 days";
  return new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: timeZone ?? "UTC" }).format(at);
}

export function groupByDate<T>(
  items: readonly T[],
  dateOf: (item: T) => Date,
  now: Date,
  timeZone: string | null | undefined,
): { label: string; items: T[] }[] {
  const groups: { label: string; items: T[] }[] = [];
  for (const item of items) {
    const label = dateGroupLabel(dateOf(item), now, timeZone);
    const last = groups.at(-1);
    if (last?.label === label) last.items.push(item);
    else groups.push({ label, items: [item] });
  }
  return groups;
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
