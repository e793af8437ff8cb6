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

/** Milliseconds since `started` (a performance.now() value), rounded to 0.1 ms. */
export function since(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}
