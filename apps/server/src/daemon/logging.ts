import { type DestinationStream, type Logger, type LoggerOptions, pino } from "pino";

export interface LoggerSettings {
  level?: string;
  /** Where the JSON lines go; defaults to stdout. Tests pass an in-memory stream. */
  destination?: DestinationStream;
  /** Append the lines to this file instead of stdout (`--log-file`). */
  file?: string | undefined;
}

/**
 * Stdout written off the request path: a line per request written with a
 * blocking write(2) each cost a measurable share of a placement's time over
 * HTTP, before the response went out. Lines logged while a write is in
 * flight go out together in the next one. Not batched further (say to
 * 4 KiB with a timer): measured, that made single requests over HTTP
 * slower, not faster. pino writes out what is left synchronously when the
 * process exits (`process.exit` included): only a SIGKILL can lose lines.
 */
function asyncStdout(): DestinationStream {
  return pino.destination({ dest: 1, sync: false });
}

/** The same, appended to a file (created with its folder; mode 0600 like the database beside it). */
function asyncFile(file: string): DestinationStream {
  return pino.destination({ dest: file, sync: false, append: true, mkdir: true, mode: 0o600 });
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
  const destination =
    settings.destination ?? (settings.file === undefined ? asyncStdout() : asyncFile(settings.file));
  return pino(options, destination);
}
