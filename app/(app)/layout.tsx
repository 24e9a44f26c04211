import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { getDb } from "@/db/client";
import { listConversations } from "@/db/queries/conversations";
import { getAccount } from "@/db/queries/users";
import { getServerSession } from "@/lib/auth/server";
import { jsonify } from "@/lib/ui/json";

export const dynamic = "force-dynamic";

/** Every signed-in page: the sidebar (chats, memories, settings) around the page. */
export default async function AppLayout({ children }: { children: ReactNode }) {
  const session = await getServerSession();
  // proxy.ts already sent signed-out visitors to /login with their callbackUrl; this is the lock.
  if (!session) redirect("/login");
  const db = await getDb();
  const [account, page] = await Promise.all([
    // A session whose user was deleted is no session.
    getAccount(db, { userId: session.id }).catch(() => null),
    listConversations(db, { userId: session.id, limit: 30 }),
  ]);
  if (!account) redirect("/login");
  return (
    <AppShell user={{ name: account.name, email: account.email }} initialConversations={jsonify(page)}>
      {children}
    </AppShell>
  );
}
