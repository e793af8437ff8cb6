/** Runs `operation` `count` times one after another and returns each duration in ms. */
export async function timeEach(count: number, operation: (i: number) => Promise<unknown>): Promise<number[]> {
  const durations: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await operation(i);
    durations.push(performance.now() - started);
  }
  return durations;
}

/** Wall and CPU time of each run, in ms. */
export interface WallAndCpu {
  wall: number[];
  /**
   * This process's user + system CPU time per run. On a loaded machine the
   * wall figure mostly measures waiting for a core; CPU time shows the work.
   * It includes V8's parallel GC threads, so it can exceed the wall time.
   */
  cpu: number[];
}

/** timeEach, also recording each run's CPU time. */
export async function timeEachWithCpu(
  count: number,
  operation: (i: number) => Promise<unknown>,
): Promise<WallAndCpu> {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < count; i++) {
    const cpuStarted = process.cpuUsage();
    const started = performance.now();
    await operation(i);
    wall.push(performance.now() - started);
    const used = process.cpuUsage(cpuStarted);
    cpu.push((used.user + used.system) / 1000);
  }
  return { wall, cpu };
}

/** Wall time of each run, and how far another clock moved during it, both in ms. */
export interface WallAndClock {
  wall: number[];
  clock: number[];
}

/**
 * timeEach, also recording how far `clock` (e.g. a server's CPU time so far,
 * ms) moved over each run. The clock is read just outside the timed span, so
 * a slow read (a server's /proc files) does not count as the run's wall time.
 */
export async function timeEachAgainst(
  count: number,
  operation: (i: number) => Promise<unknown>,
  clock: () => number,
): Promise<WallAndClock> {
  const wall: number[] = [];
  const moved: number[] = [];
  for (let i = 0; i < count; i++) {
    const clockStarted = clock();
    const started = performance.now();
    await operation(i);
    wall.push(performance.now() - started);
    moved.push(clock() - clockStarted);
  }
  return { wall, clock: moved };
}

/** Milliseconds since `started` (a performance.now() value), rounded to 0.1 ms. */
export function since(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}
