import { type DestinationStream, type Logger, type LoggerOptions, pino } from "pino";

export interface LoggerSettings {
  level?: string;
  /** Where the JSON lines go; defaults to stdout. Tests pass an in-memory stream. */
  destination?: DestinationStream;
}

/**
 * Stdout written in batches, off the request path: a line per request
 * written with its own write(2) cost a measurable share of a placement's
 * time over HTTP (the call, and the wake-up of whoever reads the pipe,
 * before the response went out). Lines gather until 4 KiB are buffered
 * and go out together; a timer sends whatever waits every 250 ms, so a
 * line is never late by more than that. pino writes out what is left
 * synchronously when the process exits (`process.exit` included): only a
 * SIGKILL can lose the last lines.
 */
export const LOG_FLUSH_MS = 250;

function bufferedStdout(): DestinationStream {
  return pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: LOG_FLUSH_MS });
}

/**
 * Structured JSON logs. Authorization headers and anything named like a
 * secret are redacted at the logger, so no code path can leak a token by accident.
 */
export function createLogger(settings: LoggerSettings = {}): Logger {
  const options: LoggerOptions = {
    level: settings.level ?? "info",
    base: { service: "berthd" },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ["req.headers.authorization", "headers.authorization", "token", "secret", "*.token", "*.secret"],
      censor: "[redacted]",
    },
  };
  return pino(options, settings.destination ?? bufferedStdout());
}
