import { ChevronLeftIcon, ChevronRightIcon } from "lucide-react";
import Link from "next/link";
import { buttonVariants } from "@/components/ui/button";
import { cn } from "@/lib/ui/cn";

export function Pagination({
  page,
  pageSize,
  total,
  params,
}: {
  page: number;
  pageSize: number;
  total: number;
  params: Record<string, string>;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  const href = (to: number) => `/memories?${new URLSearchParams({ ...params, page: String(to) })}`;
  const link = (disabled: boolean) =>
    cn(buttonVariants({ variant: "outline", size: "sm" }), disabled && "pointer-events-none opacity-50");
  return (
    <nav aria-label="Pages" className="flex items-center justify-between gap-2 pt-2">
      <Link
        href={href(page - 1)}
        className={link(page <= 1)}
        aria-disabled={page <= 1}
        tabIndex={page <= 1 ? -1 : undefined}
      >
        <ChevronLeftIcon aria-hidden="true" />
        Previous
      </Link>
      <span className="text-sm text-muted-foreground">
        Page {page} of {pages}
      </span>
      <Link
        href={href(page + 1)}
        className={link(page >= pages)}
        aria-disabled={page >= pages}
        tabIndex={page >= pages ? -1 : undefined}
      >
        Next
        <ChevronRightIcon aria-hidden="true" />
      </Link>
    </nav>
  );
}
