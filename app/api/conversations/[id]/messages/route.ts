import { route } from "@/lib/api/route";
import { listTranscript } from "@/lib/chat/transcript";
import { idParams } from "@/lib/validation/common";

/** Each assistant message carries a summary of its debug record and extraction (the chat's metadata line). */
export const GET = route({ params: idParams, bearer: "read" }, async ({ db, userId, params }) => ({
  messages: await listTranscript(db, { userId, conversationId: params.id }),
}));
