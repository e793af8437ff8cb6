/**
 * Who runs offline detection and healing, and since when this engine can
 * judge silence.
 *
 * One healer at a time: with a store that offers leases
 * (`Store.acquireLease`), only the engine holding the `healer` lease marks
 * members offline and heals them; it renews the lease every tick, and when
 * it stops (dies, or is stopped) the lease expires and another engine's
 * next tick takes it over. Without leases (one process) every tick heals.
 *
 * Given its tick period, an engine counts silence only from its first tick
 * (it could not hear members before it ran), and, when its clock does not
 * measure stalls itself, measures them from its ticks: the part of a gap
 * between ticks past the period (and past the slack) is time the engine
 * could not run. Both feed the one offline rule of own-stall.ts.
 */
import { randomUUID } from "node:crypto";
import { StallLog } from "../runtime/own-stall.js";
import type { Store } from "../store/port.js";

export const HEALER_LEASE = "healer";

export interface HealerDutyOptions {
  /** How often the app calls tick(); enables the start-up rule and tick-measured stalls (off when undefined). */
  tickPeriodMs?: number;
}

export class HealerDuty {
  /** This engine's name as a lease holder. */
  readonly holder = `engine-${randomUUID()}`;
  /** Late ticks as stalls (defined with a tick period): the engine's measure when its clock has none. */
  readonly tickStalls: StallLog | undefined;
  private lastTickMs: number | null = null;
  /** Since when this engine has been ticking (silence is counted from here at the earliest). */
  private awakeSinceMs = -Infinity;
  private holdsLease = false;

  constructor(
    private readonly store: Store,
    private readonly options: HealerDutyOptions,
    now: () => number,
  ) {
    this.tickStalls = options.tickPeriodMs === undefined ? undefined : new StallLog(now);
  }

  /** Lateness past this is a stall of this engine, not scheduling noise. */
  stallSlackMs(): number {
    return Math.max(this.options.tickPeriodMs ?? 0, 1_000);
  }

  /** How long a lease lasts without renewal: several ticks, so one slow tick does not lose it. */
  leaseTtlMs(): number {
    return Math.max(3 * (this.options.tickPeriodMs ?? 5_000), 10_000);
  }

  /** Called at the start of every tick; answers the time since the previous tick (0 for the first). */
  observeTick(nowMs: number): number {
    const period = this.options.tickPeriodMs;
    const gap = this.lastTickMs === null ? 0 : nowMs - this.lastTickMs;
    if (this.lastTickMs === null && period !== undefined) this.awakeSinceMs = nowMs;
    this.lastTickMs = nowMs;
    if (period !== undefined && gap - period > this.stallSlackMs())
      this.tickStalls?.record(nowMs, gap - period);
    return gap;
  }

  /** How long a member last heard at `heartbeatMs` (null: never) has been silent, counted from this engine's start. */
  silenceMs(heartbeatMs: number | null, nowMs: number): number {
    return nowMs - Math.max(heartbeatMs ?? -Infinity, this.awakeSinceMs);
  }

  /** Acquires or renews the healer lease; true when this engine is the healer now. */
  async claimDuty(): Promise<boolean> {
    if (this.store.acquireLease === undefined) return true;
    this.holdsLease = await this.store.acquireLease(HEALER_LEASE, this.holder, this.leaseTtlMs());
    return this.holdsLease;
  }

  /** Gives the lease up (shutdown): another engine takes over at its next tick. */
  async standDown(): Promise<void> {
    if (!this.holdsLease || this.store.releaseLease === undefined) return;
    this.holdsLease = false;
    await this.store.releaseLease(HEALER_LEASE, this.holder);
  }
}
