import { headers } from "next/headers";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { DatabaseUnavailable } from "@/components/database-unavailable";
import { DatesProvider } from "@/components/dates-provider";
import { AppShell } from "@/components/shell/app-shell";
import { getDb } from "@/db/client";
import { getServerSession } from "@/lib/auth/server";
import { dateContext } from "@/lib/ui/format";
import { jsonify } from "@/lib/ui/json";
import { loadShellData } from "./shell-data";

export const dynamic = "force-dynamic";

export default async function AppLayout({ children }: { children: ReactNode }) {
  const shell = await loadShellData({
    getDb,
    getSessionUserId: async () => (await getServerSession())?.id ?? null,
  });
  // proxy.ts already sent signed-out visitors to /login with their callbackUrl; this is the lock.
  if (shell.kind === "signed-out") redirect("/login");
  if (shell.kind === "database-unavailable") return <DatabaseUnavailable />;
  const { account, page } = shell;
  const dates = dateContext((await headers()).get("accept-language"), account.timeZone);
  return (
    <DatesProvider value={dates}>
      <AppShell
        user={{ name: account.name, email: account.email, timeZone: account.timeZone }}
        initialConversations={jsonify(page)}
      >
        {children}
      </AppShell>
    </DatesProvider>
  );
}
