/** Injectable time source, so tests and simulations control heartbeats and thresholds. */
export interface Clock {
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

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current += ms;
  }

  set(to: Date | string | number): void {
    this.current = new Date(to).getTime();
  }
}
