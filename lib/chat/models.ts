import { AppError } from "@/core/errors";
import type { AiRegistry } from "@/lib/ai/registry";

/** 400 naming body.model when `modelId` is not a configured chat model. */
export function assertKnownModel(ai: AiRegistry, modelId: string): void {
  if (ai.isKnownChatModel(modelId)) return;
  const known = ai.config.chatModels.map((m) => m.id).join(", ");
  throw new AppError("bad_request", `Unknown model "${modelId}". Available: ${known}`, {
    fields: { "body.model": `Unknown model; available: ${known}` },
  });
}
