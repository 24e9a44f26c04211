"use client";

import { RotateCcwIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { api, errorMessage } from "@/lib/ui/api";

export function RetryExtractionButton({ messageId }: { messageId: string }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  return (
    <Button
      variant="outline"
      size="xs"
      disabled={pending}
      onClick={async () => {
        setPending(true);
        try {
          await api(`/api/messages/${messageId}/extraction/retry`, { method: "POST" });
          toast.success("Extraction queued again");
          router.refresh();
        } catch (error) {
          toast.error(`Could not retry: ${errorMessage(error)}`);
        } finally {
          setPending(false);
        }
      }}
    >
      <RotateCcwIcon aria-hidden="true" />
      Retry extraction
    </Button>
  );
}
