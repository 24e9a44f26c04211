/** Every Inngest function Lifeline serves (app/api/inngest/route.ts). */
import { extractMemories } from "./extract-memories";
import { reembedMemoriesFunction } from "./reembed-memories";
import { runImportFunction } from "./run-import";
import { sweepsFunction } from "./sweeps";

export const functions = [extractMemories, reembedMemoriesFunction, runImportFunction, sweepsFunction];
