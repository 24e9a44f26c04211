/**
 * Runs in the browser before the app's code (Next's instrumentation-client convention).
 *
 * zod 4 probes `new Function("")` the first time it builds an object schema, to compile faster
 * parsers. The Content-Security-Policy (next.config.ts) allows no eval in production, so the probe
 * would be blocked and reported as a console error — the AI SDK's chat client builds zod schemas.
 * `jitless` skips the probe; parsing stays correct, only a little slower.
 */
import { config } from "zod";

config({ jitless: true });
