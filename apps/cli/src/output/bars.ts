import type { Colors } from "./colour.js";

const FULL = "█";
const EMPTY = "░";

/** used/capacity as a whole percentage (nearest); a class with no capacity reads 0%, or 100% when something is allocated. */
export function percentUsed(used: number, capacity: number): number {
  if (capacity <= 0) return used > 0 ? 100 : 0;
  return Math.round((used / capacity) * 100);
}

/**
 * A fill bar such as `████░░░░  50%`: `width` cells, each a full or an empty
 * block. Green below 70%, yellow below 90%, red from 90% (when colour is on).
 */
export function usageBar(used: number, capacity: number, colors: Colors, width = 8): string {
  const percent = percentUsed(used, capacity);
  const filled = Math.min(width, Math.round((Math.min(percent, 100) / 100) * width));
  const paint = percent >= 90 ? colors.red : percent >= 70 ? colors.yellow : colors.green;
  const bar = paint(FULL.repeat(filled)) + colors.dim(EMPTY.repeat(width - filled));
  return `${bar} ${String(percent).padStart(3)}%`;
}
