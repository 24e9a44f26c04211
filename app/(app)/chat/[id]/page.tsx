import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Chat } from "@/components/chat/chat";
import { OfflineNotice } from "@/components/chat/offline-notice";
import { isAppError } from "@/core/errors";
import { getDb } from "@/db/client";
import { getConversation } from "@/db/queries/conversations";
import { getAiConfig } from "@/lib/ai/registry";
import { requireServerSession } from "@/lib/auth/server";
import { listTranscript } from "@/lib/chat/transcript";
import { DEFAULT_TEMPERATURE } from "@/lib/chat/turn";
import { showBranchOf } from "@/lib/chat/versions";
import { jsonify } from "@/lib/ui/json";

export const dynamic = "force-dynamic";

type Params = Promise<{ id: string }>;
type SearchParams = Promise<{ message?: string | string[] }>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `?message=<id>` on another version switches to that branch, as stepping to it would; other ids change nothing. */
async function loadConversation(userId: string, conversationId: string, messageId: string | undefined) {
  if (!UUID.test(conversationId)) return null;
  const db = await getDb();
  try {
    if (messageId && UUID.test(messageId)) await showBranchOf(db, { userId, conversationId, messageId });
    const [conversation, transcript] = await Promise.all([
      getConversation(db, { userId, conversationId }),
      listTranscript(db, { userId, conversationId }),
    ]);
    return { conversation, transcript };
  } catch (error) {
    if (isAppError(error) && error.code === "not_found:conversation") return null;
    throw error;
  }
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { id } = await params;
  const session = await requireServerSession(`/chat/${id}`);
  const loaded = UUID.test(id)
    ? await getConversation(await getDb(), { userId: session.id, conversationId: id }).catch(() => null)
    : null;
  return { title: loaded?.title ?? "Chat" };
}

export default async function ChatPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const { id } = await params;
  const { message } = await searchParams;
  const session = await requireServerSession(`/chat/${id}`);
  const loaded = await loadConversation(session.id, id, typeof message === "string" ? message : undefined);
  if (!loaded) notFound();
  const { conversation, transcript } = loaded;
  const ai = getAiConfig();
  const model = ai.chatModels.some((m) => m.id === conversation.model) ? conversation.model : null;
  return (
    <Chat
      // A link to another message of the same chat may show another branch: a new view.
      key={`${conversation.id}:${typeof message === "string" ? message : ""}`}
      conversation={{
        id: conversation.id,
        title: conversation.title,
        memoryEnabled: conversation.memoryEnabled,
        importedFrom: conversation.importedFrom,
      }}
      initialMessages={jsonify(transcript)}
      models={ai.chatModels}
      dictation={ai.transcriptionModel !== null}
      initialSettings={{
        model: model ?? ai.defaultChatModel,
        mode: conversation.mode,
        temperature: DEFAULT_TEMPERATURE,
        memoryEnabled: conversation.memoryEnabled,
      }}
      // Which model answers is news only where one will.
      notice={conversation.importedFrom ? undefined : <OfflineNotice />}
    />
  );
}
