import { StarEvalError } from "./errors.js";
import type { StarIterator, StarValue, Value } from "./value.js";

/** Lazy arithmetic sequence range(start, stop, step); bounds are 32-bit like go.starlark.net. */
export class StarRange implements StarValue {
  readonly type = "range";
  readonly length: number;
  constructor(
    readonly start: number,
    readonly stop: number,
    readonly step: number,
  ) {
    this.length = rangeLength(start, stop, step);
  }
  freeze(): void {}
  truth(): boolean {
    return this.length > 0;
  }
  hash(): number {
    throw new StarEvalError("unhashable: range");
  }
  len(): number {
    return this.length;
  }
  at(i: number): number {
    return this.start + i * this.step;
  }
  iterate(): StarIterator {
    return new RangeIterator(this);
  }
}

export function rangeLength(start: number, stop: number, step: number): number {
  if (step > 0 && start < stop) return Math.floor((stop - 1 - start) / step) + 1;
  if (step < 0 && start > stop) return Math.floor((start - 1 - stop) / -step) + 1;
  return 0;
}

class RangeIterator implements StarIterator {
  private i = 0;
  constructor(private readonly r: StarRange) {}
  next(): Value | undefined {
    return this.i < this.r.length ? this.r.at(this.i++) : undefined;
  }
  done(): void {}
}
