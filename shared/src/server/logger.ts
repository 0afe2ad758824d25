import { pino, type Logger } from "pino";

export type { Logger };

/** Structured JSON logs; secrets never reach them (see the redact paths). */
export function createLogger(name: string, level = process.env.LOG_LEVEL ?? "info"): Logger {
  return pino({
    name,
    level,
    redact: {
      paths: ["req.headers.cookie", "req.headers.authorization", "password", "*.password", "passwordHash", "*.passwordHash"],
      censor: "[redacted]",
    },
  });
}
