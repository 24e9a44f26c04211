/**
 * zod 4 probes `new Function("")` to compile faster parsers; the production CSP allows no eval, so the probe
 * would be reported as a console error. `jitless` skips it; parsing stays correct, a little slower.
 */
import { config } from "zod";

config({ jitless: true });
