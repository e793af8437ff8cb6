import { StarEvalError } from "./errors.js";
import type { Int } from "./int.js";
import { normInt, type StarIterator, type StarValue, type Value } from "./value.js";

/**
 * range(start, stop, step): a lazy arithmetic sequence. Bounds are Go ints (64 bits) as in
 * go.starlark.net; byte counts beyond 2^31 are common in scriptlets. StarRange holds them as JS
 * numbers, which is exact whenever the bounds and their distance stay below 2^53 (loops read
 * its fields directly); anything larger is a StarBigRange, computed with bigints.
 */
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
  /** go's rangeValue.Slice(start, end, step) with element positions from go's slice(). */
  slice(a: number, b: number, c: number): StarRange | StarBigRange {
    return makeRange(this.start + this.step * a, this.start + this.step * b, this.step * c);
  }
  view(): RangeView {
    return {
      start: BigInt(this.start),
      stop: BigInt(this.stop),
      step: BigInt(this.step),
      length: BigInt(this.length),
    };
  }
}

/** A range whose bounds do not all fit exactly in JS numbers. */
export class StarBigRange implements StarValue {
  readonly type = "range";
  readonly bigLength: bigint;
  constructor(
    readonly start: bigint,
    readonly stop: bigint,
    readonly step: bigint,
  ) {
    this.bigLength = bigRangeLength(start, stop, step);
  }
  get length(): number {
    return Number(this.bigLength);
  }
  freeze(): void {}
  truth(): boolean {
    return this.bigLength > 0n;
  }
  hash(): number {
    throw new StarEvalError("unhashable: range");
  }
  len(): number {
    return this.length;
  }
  at(i: number): Int {
    return normInt(this.start + BigInt(i) * this.step);
  }
  iterate(): StarIterator {
    return new RangeIterator(this);
  }
  slice(a: number, b: number, c: number): StarRange | StarBigRange {
    return makeRange(
      this.start + this.step * BigInt(a),
      this.start + this.step * BigInt(b),
      this.step * BigInt(c),
    );
  }
  view(): RangeView {
    return { start: this.start, stop: this.stop, step: this.step, length: this.bigLength };
  }
}

/** A range's parameters as bigints, for the operations that do not need speed. */
export interface RangeView {
  start: bigint;
  stop: bigint;
  step: bigint;
  length: bigint;
}

export function isRange(v: Value): v is StarRange | StarBigRange {
  return v instanceof StarRange || v instanceof StarBigRange;
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** range(start, stop, step) (step != 0) in the representation its bounds need. */
export function makeRange(start: Int, stop: Int, step: Int): StarRange | StarBigRange {
  if (typeof start === "number" && typeof stop === "number" && typeof step === "number") {
    if (Number.isSafeInteger(stop - start) && Number.isSafeInteger(start + step)) {
      return new StarRange(start, stop, step);
    }
  }
  const [a, b, c] = [BigInt(start), BigInt(stop), BigInt(step)];
  const fits = (x: bigint) => x >= -SAFE && x <= SAFE;
  if (fits(a) && fits(b) && fits(c) && fits(b - a) && fits(a + c)) {
    return new StarRange(Number(a), Number(b), Number(c));
  }
  return new StarBigRange(a, b, c);
}

export function rangeLength(start: number, stop: number, step: number): number {
  if (step > 0 && start < stop) return Math.floor((stop - 1 - start) / step) + 1;
  if (step < 0 && start > stop) return Math.floor((start - 1 - stop) / -step) + 1;
  return 0;
}

function bigRangeLength(start: bigint, stop: bigint, step: bigint): bigint {
  if (step > 0n && start < stop) return (stop - 1n - start) / step + 1n;
  if (step < 0n && start > stop) return (start - 1n - stop) / -step + 1n;
  return 0n;
}

/** go's rangeValue.String. */
export function rangeRepr(r: StarRange | StarBigRange): string {
  const { start, stop, step } = r.view();
  if (step !== 1n) return `range(${start}, ${stop}, ${step})`;
  if (start !== 0n) return `range(${start}, ${stop})`;
  return `range(${stop})`;
}

/** go's rangeEqual: ranges are equal when they denote the same sequence. */
export function rangesEqual(x: StarRange | StarBigRange, y: StarRange | StarBigRange): boolean {
  const a = x.view();
  const b = y.view();
  if (a.length !== b.length) return false;
  if (a.length === 0n) return true;
  if (a.start !== b.start) return false;
  return a.length === 1n || a.step === b.step;
}

/**
 * go's rangeValue.contains: only ints within the 32-bit range can be members (upstream converts
 * the candidate with AsInt32 and answers false beyond it).
 */
export function rangeContains(r: StarRange | StarBigRange, x: Int): boolean {
  if (typeof x !== "number" || x < -0x80000000 || x > 0x7fffffff) return false;
  const { start, step, length } = r.view();
  const delta = BigInt(x) - start;
  const quo = delta / step;
  const rem = delta % step;
  return rem === 0n && quo >= 0n && quo < length;
}

class RangeIterator implements StarIterator {
  private i = 0;
  constructor(private readonly r: StarRange | StarBigRange) {}
  next(): Value | undefined {
    return this.i < this.r.length ? this.r.at(this.i++) : undefined;
  }
  done(): void {}
}
