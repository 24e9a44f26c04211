import { CpuIcon } from "lucide-react";
import { getAiRegistry } from "@/lib/ai/registry";

/** Names the offline provider when it is the one answering (server component). */
export function OfflineNotice() {
  const ai = getAiRegistry();
  if (ai.config.provider !== "offline") return null;
  const { model } = ai.describeProviders();
  return (
    <p
      role="status"
      data-testid="offline-banner"
      className="mb-6 flex items-start gap-2.5 rounded-xl border border-amber-500/30 bg-amber-50 px-3.5 py-2.5 text-[13px] leading-relaxed text-amber-950 sm:px-4 sm:py-3 sm:text-sm dark:bg-amber-950/40 dark:text-amber-100"
    >
      <CpuIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>
        Running on the <strong className="font-semibold">offline model</strong> ({model}): answers are composed from
        your memories by rules, not by a language model. Whoever runs this Lifeline can connect a real one:{" "}
        <a href="/settings#administrators" className="font-medium underline underline-offset-2">
          Settings → For administrators
        </a>
        .
      </span>
    </p>
  );
}
