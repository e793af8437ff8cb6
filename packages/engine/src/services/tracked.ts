/**
 * Counts one placement-making operation in the engine's metrics (see
 * runtime/metrics.ts): every service whose operations place or move
 * instances runs them through here, so the count has one rule.
 */

import { EngineError } from "../base/errors.js";
import type { EngineMetrics, PlacementOperation } from "../runtime/metrics.js";

const ONE_PLACED = () => 1;
const NO_FAILURE = () => undefined;

/**
 * Runs `run` and counts it: instances placed (`placed`, 1 by default) or
 * its failure by error kind (a thrown EngineError, or one the outcome
 * reports through `failure`), and the time it took.
 */
export async function tracked<T>(
  metrics: EngineMetrics,
  operation: PlacementOperation,
  run: () => Promise<T>,
  // Shared defaults, and the time computed where it is counted: defaults written as arrows in the
  // signature, and a `seconds` closure, were three closures allocated per create.
  placed: (value: T) => number = ONE_PLACED,
  failure: (value: T) => EngineError | undefined = NO_FAILURE,
): Promise<T> {
  const started = performance.now();
  try {
    const value = await run();
    const failed = failure(value);
    const seconds = (performance.now() - started) / 1000;
    if (failed === undefined) metrics.placed(operation, placed(value), seconds);
    else metrics.failed(operation, failed.kind, seconds);
    return value;
  } catch (error) {
    const seconds = (performance.now() - started) / 1000;
    if (error instanceof EngineError) metrics.failed(operation, error.kind, seconds, error);
    else metrics.failed(operation, "internal", seconds);
    throw error;
  }
}
