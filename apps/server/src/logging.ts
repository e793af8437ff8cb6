import { type DestinationStream, type Logger, type LoggerOptions, pino } from "pino";

export interface LoggerSettings {
  level?: string;
  /** Where the JSON lines go; defaults to stdout. Tests pass an in-memory stream. */
  destination?: DestinationStream;
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
  return settings.destination ? pino(options, settings.destination) : pino(options);
}
