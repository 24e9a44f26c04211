import type { Metadata } from "next";
import { Chat } from "@/components/chat/chat";
import { FreshChat } from "@/components/chat/fresh-chat";
import { OfflineNotice } from "@/components/chat/offline-notice";
import { getDb } from "@/db/client";
import { getAccount } from "@/db/queries/users";
import { getAiConfig } from "@/lib/ai/registry";
import { requireServerSession } from "@/lib/auth/server";
import { DEFAULT_TEMPERATURE } from "@/lib/chat/turn";

export const metadata: Metadata = { title: "New chat" };
export const dynamic = "force-dynamic";

export default async function NewChatPage() {
  const session = await requireServerSession("/");
  const account = await getAccount(await getDb(), { userId: session.id });
  const ai = getAiConfig();
  return (
    <FreshChat>
      <Chat
        // A fresh chat (fresh state) on every visit of `/`, even from a chat that started here.
        key={crypto.randomUUID()}
        conversation={null}
        initialMessages={[]}
        models={ai.chatModels}
        dictation={ai.transcriptionModel !== null}
        initialSettings={{
          model: ai.defaultChatModel,
          mode: "conversational",
          temperature: DEFAULT_TEMPERATURE,
          memoryEnabled: account.memoryEnabledDefault,
        }}
        notice={<OfflineNotice />}
      />
    </FreshChat>
  );
}
