/**
 * A Lifeline server in its own process for the fault suite, started as Next starts it (register()),
 * so a killed process and its successor behave like a crashed `next start` and the next one.
 */
import { openDatabase, optionsFromEnv } from "@/db/client";
import { register } from "@/instrumentation";
import { detachedScheduler, setBackgroundScheduler } from "@/lib/jobs/after-response";
import { startTestServer } from "@/tests/http-server";

async function main(): Promise<void> {
  setBackgroundScheduler(detachedScheduler);
  const database = await openDatabase({ ...optionsFromEnv(process.env), migrate: true });
  const server = await startTestServer({ database });
  process.env.NEXT_RUNTIME = "nodejs";
  await register();
  process.stdout.write(`READY ${server.url}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
