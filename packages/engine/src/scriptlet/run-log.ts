/**
 * The log of one run: collects the scriptlet's lines for the result (dry
 * runs show them) and forwards them to the server's logger with the
 * instance, project and reason. Output is bounded: a scriptlet logging a
 * maximal string on every step would otherwise hold gigabytes within its
 * step budget. Past the budget lines are dropped and counted, and one
 * closing warning says so; logging never changes the placement outcome.
 */
import type { ScriptletLogger, ScriptletLogLine } from "./port.js";

/** Default bound on the characters of log output kept per run. */
export const DEFAULT_LOG_BUDGET = 1 << 20;

export class RunLog {
  private readonly collected: ScriptletLogLine[] = [];
  private remaining: number;
  private dropped = 0;

  constructor(
    private readonly budget: number,
    private readonly logger: ScriptletLogger | undefined,
    private readonly meta: { instance: string; project: string; reason: string },
  ) {
    this.remaining = budget;
  }

  emit(line: ScriptletLogLine): void {
    if (line.message.length > this.remaining) {
      this.dropped++;
      this.remaining = 0;
      return;
    }
    this.remaining -= line.message.length;
    this.collected.push(line);
    this.forward(line);
  }

  /**
   * A failing server logger must not change the placement: the line stays in
   * the result (dry runs show it) and the run goes on.
   */
  private forward(line: ScriptletLogLine): void {
    try {
      this.logger?.log({ ...line, ...this.meta });
    } catch {
      // Deliberately ignored, see above.
    }
  }

  /** The kept lines, plus the truncation warning when lines were dropped. */
  lines(): ScriptletLogLine[] {
    if (this.dropped === 0) return this.collected;
    const notice: ScriptletLogLine = {
      level: "warn",
      message: `log output truncated: ${this.dropped} more line${this.dropped === 1 ? "" : "s"} dropped (limit ${this.budget} characters per run)`,
    };
    this.forward(notice);
    return [...this.collected, notice];
  }
}
