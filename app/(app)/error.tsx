"use client";

import { CircleAlertIcon } from "lucide-react";
import Link from "next/link";
import { Button, buttonVariants } from "@/components/ui/button";

export default function AppError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center px-6 py-24 text-center" role="alert">
      <CircleAlertIcon className="size-10 text-destructive" aria-hidden="true" />
      <h1 className="mt-4 text-xl font-semibold">This page could not be loaded</h1>
      <p className="mt-2 text-sm text-muted-foreground">
        Something went wrong on our side{error.digest ? ` (reference ${error.digest})` : ""}. Your data is safe.
      </p>
      <div className="mt-6 flex gap-2">
        <Button onClick={reset}>Try again</Button>
        <Link href="/" className={buttonVariants({ variant: "outline" })}>
          New chat
        </Link>
      </div>
    </div>
  );
}
