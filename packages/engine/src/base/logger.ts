/**
 * The engine logs through this interface only, so embedders plug in their
 * own logger (pino, console, OpenTelemetry) without the engine depending on one.
 */
export type LogLevel = "debug" | "info" | "warn" | "error";

export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
}

export const silentLogger: Logger = { log: () => {} };

/** Collects log lines in memory (tests, dry runs). */
export class MemoryLogger implements Logger {
  readonly lines: { level: LogLevel; message: string; fields: Record<string, unknown> }[] = [];

  log(level: LogLevel, message: string, fields: Record<string, unknown> = {}): void {
    this.lines.push({ level, message, fields });
  }
}
