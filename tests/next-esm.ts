/**
 * Import this before anything that loads `next-auth` (the route harness does): it lets Node resolve
 * next-auth's extension-less `next/*` imports outside Next's bundler. See tests/next-esm-hook.mjs.
 */
import { register } from "node:module";

register(new URL("./next-esm-hook.mjs", import.meta.url));
