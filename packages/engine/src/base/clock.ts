/** Injectable time source, so tests and simulations control heartbeats and thresholds. */
export interface Clock {
  /** The current time; the engine reads it for heartbeats, offline thresholds and timestamps. */
  now(): Date;
  /**
   * Milliseconds of the last `windowMs` during which this process itself
   * could not run (its event loop was blocked), when the clock knows. The
   * offline rule does not count them against members (own-stall.ts).
   */
  stalledMsWithin?(windowMs: number): number;
}

/** The real time (the default clock). */
export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to (tests, simulations). */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date | string | number = "2026-01-01T00:00:00.000Z") {
    this.current = new Date(start).getTime();
  }

  /** The time it was last set or advanced to. */
  now(): Date {
    return new Date(this.current);
  }

  /** Moves the time forward by `ms` milliseconds (backward when negative). */
  advance(ms: number): void {
    this.current += ms;
  }

  /** Sets the time to `to` (a Date, an ISO string or epoch milliseconds). */
  set(to: Date | string | number): void {
    this.current = new Date(to).getTime();
  }
}
