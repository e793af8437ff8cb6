/**
 * When automatic rebalancing runs: every `cluster.rebalance.interval`
 * minutes, 0 or less disabling it. Incus checks once a minute whether the
 * minutes since the daemon started are a multiple of the interval, so runs
 * fall on the multiples of the interval counted from the start, never at
 * the start itself, and an interval set (or changed) mid-way first runs at
 * the next multiple. Berth's engine does the same, counted from when the
 * engine opened, by its clock; its tick drives it, so a run comes at the
 * first tick at or past its time (a multiple missed while another server
 * held the healer lease is not made up).
 */
const MINUTE_MS = 60_000;

export class RebalanceSchedule {
  private intervalMinutes = 0;
  /** The multiple of the interval last run or passed (null: not armed). */
  private lastBoundaryMs: number | null = null;

  /** `startMs`: when the engine started (multiples are counted from here). */
  constructor(private readonly startMs: number) {}

  private boundaryAt(nowMs: number, periodMs: number): number {
    return this.startMs + Math.floor((nowMs - this.startMs) / periodMs) * periodMs;
  }

  /**
   * Is a run due at `nowMs` with this interval? True once per multiple of
   * the interval; the first call with an interval (or a changed one) arms
   * the schedule for the next multiple.
   */
  due(nowMs: number, intervalMinutes: number): boolean {
    if (intervalMinutes <= 0) {
      this.lastBoundaryMs = null;
      return false;
    }
    const boundary = this.boundaryAt(nowMs, intervalMinutes * MINUTE_MS);
    if (this.lastBoundaryMs === null || intervalMinutes !== this.intervalMinutes) {
      this.intervalMinutes = intervalMinutes;
      this.lastBoundaryMs = boundary;
      return false;
    }
    if (boundary <= this.lastBoundaryMs) return false;
    this.lastBoundaryMs = boundary;
    return true;
  }

  /** When the next run is due (ms since the epoch), null while disabled or not armed yet. */
  nextRun(): number | null {
    return this.lastBoundaryMs === null ? null : this.lastBoundaryMs + this.intervalMinutes * MINUTE_MS;
  }
}
