/** Restoring a Lifeline export: the text is embedded here with the configured embedder; a vector in a file is never trusted. */
import type { Db } from "@/db/client";
import { planRestore, type RestoringMemory, writeRestoredMemories } from "@/db/queries/restore";
import { embedMemoryTexts, type MemoryEmbedder, memoryEmbeddingText } from "./memory-store";

export async function previewRestore(
  db: Db,
  input: { userId: string; memories: RestoringMemory[] },
): Promise<{ wouldRestore: number; alreadyPresent: number }> {
  const { fresh, alreadyPresent } = await planRestore(db, input);
  return { wouldRestore: fresh.length, alreadyPresent };
}

/** Embeds what the batch adds first, then writes it in one transaction: all of the batch or nothing. */
export async function restoreMemories(
  db: Db,
  input: { userId: string; memories: RestoringMemory[]; restoredAt: Date },
  embedder: MemoryEmbedder,
): Promise<{ restored: number; alreadyPresent: number }> {
  const plan = await planRestore(db, input);
  if (plan.fresh.length === 0) return { restored: 0, alreadyPresent: plan.alreadyPresent };
  const vectors = await embedMemoryTexts(
    (texts) => embedder.embed(texts),
    plan.fresh.map((memory) => memoryEmbeddingText(memory)),
  );
  const written = await writeRestoredMemories(db, {
    userId: input.userId,
    fresh: plan.fresh,
    vectors,
    embeddingModel: embedder.model,
    restoredAt: input.restoredAt,
  });
  return { restored: written.restored, alreadyPresent: plan.alreadyPresent + written.alreadyPresent };
}
