/**
 * Who runs offline detection and healing, and whether this engine can judge
 * silence at all.
 *
 * One healer at a time: with a store that offers leases
 * (`Store.acquireLease`), only the engine holding the `healer` lease marks
 * members offline and heals them; it renews the lease every tick, and when
 * it stops (dies, or is stopped) the lease expires and another engine's
 * next tick takes it over. Without leases (one process) every tick heals.
 *
 * A stalled engine never marks members offline: when the gap between two
 * ticks is much longer than the tick period (the event loop was blocked, or
 * the process was stopped), the engine could not have received heartbeats
 * meanwhile, so silence is counted only from the end of the stall: a member
 * is offline when it has been silent for the threshold AND the engine has
 * been awake that long.
 */
import { randomUUID } from "node:crypto";
import type { Store } from "../store/port.js";

export const HEALER_LEASE = "healer";

export interface HealerDutyOptions {
  /** How often the app calls tick(); enables stall detection (off when undefined). */
  tickPeriodMs?: number;
}

export class HealerDuty {
  /** This engine's name as a lease holder. */
  readonly holder = `engine-${randomUUID()}`;
  private lastTickMs: number | null = null;
  /** Since when this engine has been awake without a stall (silence is counted from here at the earliest). */
  private awakeSinceMs: number | null = null;
  private holdsLease = false;

  constructor(
    private readonly store: Store,
    private readonly options: HealerDutyOptions,
  ) {}

  /** A gap longer than this between ticks is a stall of this engine, not of the members. */
  private stallGapMs(): number | undefined {
    const period = this.options.tickPeriodMs;
    return period === undefined ? undefined : Math.max(2 * period, period + 1_000);
  }

  /** How long a lease lasts without renewal: several ticks, so one slow tick does not lose it. */
  leaseTtlMs(): number {
    return Math.max(3 * (this.options.tickPeriodMs ?? 5_000), 10_000);
  }

  /** Called at the start of every tick; answers whether the engine just came out of a stall. */
  observeTick(nowMs: number): boolean {
    const gap = this.lastTickMs === null ? 0 : nowMs - this.lastTickMs;
    this.lastTickMs = nowMs;
    const limit = this.stallGapMs();
    const stalled = limit !== undefined && gap > limit;
    if (stalled || this.awakeSinceMs === null) this.awakeSinceMs = limit === undefined ? -Infinity : nowMs;
    return stalled;
  }

  /** The time silence is counted from for a member last heard at `heartbeatMs` (null: never). */
  silentSince(heartbeatMs: number | null): number {
    const awake = this.awakeSinceMs ?? -Infinity;
    return heartbeatMs === null ? awake : Math.max(heartbeatMs, awake);
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
