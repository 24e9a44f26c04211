import { SearchXIcon } from "lucide-react";
import Link from "next/link";
import { buttonVariants } from "@/components/ui/button";

export default function AppNotFound() {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center px-6 py-24 text-center">
      <SearchXIcon className="size-10 text-muted-foreground" aria-hidden="true" />
      <h1 className="mt-4 text-xl font-semibold">Not found</h1>
      <p className="mt-2 text-sm text-muted-foreground">
        This chat, message or page does not exist — or it is not yours. Debug views exist only for the assistant’s
        answers.
      </p>
      <Link href="/" className={`${buttonVariants()} mt-6`}>
        Start a new chat
      </Link>
    </div>
  );
}
