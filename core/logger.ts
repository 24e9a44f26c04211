/**
 * The structured logger (pino, JSON lines on stdout). `LOG_LEVEL` sets the level
 * (default "info"; "warn" under vitest so test output stays readable — failures still show).
 * Secrets never reach a log line: the redact paths below cover the usual suspects.
 */
import pino, { type Logger } from "pino";

const defaultLevel = process.env.VITEST ? "warn" : "info";

export const logger: Logger = pino({
  level: process.env.LOG_LEVEL ?? defaultLevel,
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
