/**
 * The engine logs through this interface only, so embedders plug in their
 * own logger (pino, console, OpenTelemetry) without the engine depending on one.
 */
export type LogLevel = "debug" | "info" | "warn" | "error";

/** Where the engine's log lines go: one method, so any logging library fits behind it. */
export interface Logger {
  /** Records one line with its structured fields. */
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
}

/** A logger that drops every line (the default). */
export const silentLogger: Logger = { log: () => {} };

/** Collects log lines in memory (tests, dry runs). */
export class MemoryLogger implements Logger {
  /** Every line logged so far, oldest first. */
  readonly lines: {
    /** The line's level. */
    level: LogLevel;
    /** Its text. */
    message: string;
    /** Its structured fields (`{}` when none were given). */
    fields: Record<string, unknown>;
  }[] = [];

  log(level: LogLevel, message: string, fields: Record<string, unknown> = {}): void {
    this.lines.push({ level, message, fields });
  }
}
