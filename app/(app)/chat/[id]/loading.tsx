import { Skeleton } from "@/components/ui/skeleton";

export default function ChatLoading() {
  return (
    <div className="flex h-full flex-col" aria-busy="true">
      <span className="sr-only" role="status">
        Loading the chat…
      </span>
      <div className="flex h-12 items-center gap-2 border-b px-4">
        <Skeleton className="h-4 w-40" />
        <Skeleton className="ml-auto h-8 w-32" />
        <Skeleton className="h-8 w-28" />
      </div>
      <div className="mx-auto w-full max-w-3xl flex-1 space-y-8 px-6 py-8">
        <Skeleton className="ml-auto h-10 w-2/3 rounded-2xl" />
        <div className="flex gap-3">
          <Skeleton className="size-7 rounded-lg" />
          <div className="flex-1 space-y-2">
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-5/6" />
            <Skeleton className="h-4 w-2/3" />
          </div>
        </div>
      </div>
      <div className="mx-auto w-full max-w-3xl px-6 pb-4">
        <Skeleton className="h-14 w-full rounded-2xl" />
      </div>
    </div>
  );
}
