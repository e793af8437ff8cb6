import type { Logger as EngineLogger, LogLevel } from "@berth/engine";
import type { Logger } from "pino";

/** The engine logs through its own small interface; this routes it into pino (scriptlet log lines included). */
export function engineLoggerFor(logger: Logger): EngineLogger {
  const engineLog = logger.child({ component: "engine" });
  return {
    log(level: LogLevel, message: string, fields: Record<string, unknown> = {}) {
      engineLog[level](fields, message);
    },
  };
}
