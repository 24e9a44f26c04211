/** Every Inngest function Lifeline serves (app/api/inngest/route.ts). */
import { extractMemories } from "./extract-memories";

export const functions = [extractMemories];
