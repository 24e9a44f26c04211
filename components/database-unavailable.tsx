import { DatabaseZapIcon } from "lucide-react";
import Link from "next/link";
import { buttonVariants } from "@/components/ui/button";

/** The signed-in app cannot reach its database: say so plainly (never "you are signed out"). */
export function DatabaseUnavailable() {
  return (
    <main
      className="mx-auto flex min-h-dvh max-w-md flex-col items-center justify-center px-6 text-center"
      role="alert"
    >
      <DatabaseZapIcon className="size-10 text-destructive" aria-hidden="true" />
      <h1 className="mt-4 text-xl font-semibold">Lifeline can't reach its database</h1>
      <p className="mt-2 text-sm text-muted-foreground">
        Your conversations and memories are stored there, so nothing can be shown until it answers again. Nothing was
        lost and you are still signed in. If you run this Lifeline, <code className="font-mono">/api/health</code> (with
        its <code className="font-mono">LIFELINE_HEALTH_TOKEN</code>) says which part is down.
      </p>
      <Link href="/" className={`${buttonVariants()} mt-6`}>
        Try again
      </Link>
    </main>
  );
}
