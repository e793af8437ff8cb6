/**
 * When automatic rebalancing runs: every `cluster.rebalance.interval`
 * minutes, 0 or less disabling it. Incus checks once a minute whether the
 * minutes since the daemon started are a multiple of the interval (so its
 * first run is one interval after start); Berth's engine counts one
 * interval from when it first saw rebalancing enabled as the healer (or
 * from a change of the interval), then one interval after each run. The
 * engine's tick drives it, so a run comes at the first tick at or past its
 * time, by the engine's clock.
 */
const MINUTE_MS = 60_000;

export class RebalanceSchedule {
  private intervalMinutes = 0;
  private nextRunMs: number | null = null;

  /** Is a run due at `nowMs` with this interval? Arms the schedule on first sight of an interval. */
  due(nowMs: number, intervalMinutes: number): boolean {
    if (intervalMinutes <= 0) {
      this.intervalMinutes = 0;
      this.nextRunMs = null;
      return false;
    }
    if (this.nextRunMs === null || intervalMinutes !== this.intervalMinutes) {
      this.intervalMinutes = intervalMinutes;
      this.nextRunMs = nowMs + intervalMinutes * MINUTE_MS;
    }
    return nowMs >= this.nextRunMs;
  }

  /** A run was made at `nowMs`: the next is one interval later. */
  ran(nowMs: number): void {
    if (this.intervalMinutes > 0) this.nextRunMs = nowMs + this.intervalMinutes * MINUTE_MS;
  }

  /** When the next run is due (ms since the epoch), null while disabled or not armed yet. */
  nextRun(): number | null {
    return this.nextRunMs;
  }
}
