/** Undoing an import: a memory going back to earlier words is embedded again here, outside the transaction. */
import type { Db } from "@/db/client";
import { UndoNeedsVectors, type UndoneImport, undoImport } from "@/db/queries/import-undo";
import { embedMemoryTexts, type MemoryEmbedder } from "./memory-store";

/** The words a memory goes back to come from its history, which only grows: a second pass needs nothing new. */
const MAX_PASSES = 3;

export async function undoImportReembedding(
  db: Db,
  input: { userId: string; importId: string },
  embedder: MemoryEmbedder,
): Promise<UndoneImport> {
  const byText = new Map<string, number[]>();
  for (let pass = 1; ; pass++) {
    try {
      return await undoImport(db, { ...input, vectors: { model: embedder.model, byText } });
    } catch (error) {
      if (!(error instanceof UndoNeedsVectors) || pass >= MAX_PASSES) throw error;
      const vectors = await embedMemoryTexts((texts) => embedder.embed(texts), error.texts);
      error.texts.forEach((text, i) => {
        const vector = vectors[i];
        if (vector) byText.set(text, vector);
      });
    }
  }
}
