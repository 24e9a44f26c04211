/**
 * The structured logger (pino, JSON lines on stdout). `LOG_LEVEL` sets the level (default "info";
 * the test runner sets "warn" in vitest.config.ts so test output stays readable).
 * Secrets never reach a log line: the redact paths below cover the usual suspects.
 */
import pino, { type Logger } from "pino";
import { env } from "./env";

export const logger: Logger = pino({
  level: env().LOG_LEVEL ?? "info",
  base: { app: "lifeline" },
  redact: {
    paths: [
      "password",
      "*.password",
      "*.currentPassword",
      "*.newPassword",
      "*.passwordHash",
      "*.access_token",
      "*.refresh_token",
      "*.id_token",
      "headers.cookie",
      "headers.authorization",
    ],
    censor: "[redacted]",
  },
});

export type { Logger };
