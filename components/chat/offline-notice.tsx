import { CpuIcon } from "lucide-react";
import { getAiRegistry } from "@/lib/ai/registry";

/**
 * Names the offline provider when it is the one answering (server component). One line at every
 * width, above the starters: a phone drops the model id and the link's words (the label links).
 */
export function OfflineNotice() {
  const ai = getAiRegistry();
  if (ai.config.provider !== "offline") return null;
  const { model } = ai.describeProviders();
  return (
    <p
      role="status"
      data-testid="offline-banner"
      title="Answers are composed from your memories by rules, not by a language model. Whoever runs this Lifeline can connect a real one: Settings → For administrators."
      className="mb-4 flex items-center gap-2 rounded-lg border border-amber-500/30 bg-amber-50 px-3 py-1.5 text-[13px] whitespace-nowrap text-amber-950 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <CpuIcon className="size-4 shrink-0" aria-hidden="true" />
      <span className="min-w-0 truncate">
        <a href="/settings#administrators" className="font-semibold underline-offset-2 hover:underline">
          Offline model
        </a>
        <span className="max-sm:hidden"> ({model}): answers only from your memories.</span>
        <span className="sm:hidden">: answers from memories</span>
        <a href="/settings#administrators" className="ml-1.5 font-medium underline underline-offset-2 max-sm:hidden">
          Connect a real model
        </a>
      </span>
    </p>
  );
}
