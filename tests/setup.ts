/**
 * Set-up of every vitest process. Route handlers run over plain node:http here (tests/http-server.ts)
 * or are called directly, never inside a Next request scope: background work runs detached.
 */
import { detachedScheduler, setBackgroundScheduler } from "@/lib/jobs/after-response";

setBackgroundScheduler(detachedScheduler);
