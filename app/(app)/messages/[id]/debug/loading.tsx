import { Skeleton } from "@/components/ui/skeleton";

export default function DebugLoading() {
  return (
    <div className="mx-auto w-full max-w-5xl space-y-5 px-4 py-8 sm:px-6" aria-busy="true">
      <span className="sr-only" role="status">
        Loading Inspect…
      </span>
      <Skeleton className="h-4 w-28" />
      <Skeleton className="h-8 w-80 max-w-full" />
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        {["a", "b", "c", "d", "e", "f", "g", "h"].map((key) => (
          <Skeleton key={key} className="h-18 rounded-xl" />
        ))}
      </div>
      <Skeleton className="h-64 w-full rounded-xl" />
      <Skeleton className="h-48 w-full rounded-xl" />
    </div>
  );
}
