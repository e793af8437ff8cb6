import { err, ok, type Result } from "./result.js";

/**
 * Byte sizes follow LXD's `units.ParseByteSizeString`: an unsigned decimal
 * integer followed by nothing, `B`, ` bytes`, a decimal suffix (`kB`..`EB`,
 * powers of 1000) or a binary one (`KiB`..`EiB`, powers of 1024).
 *
 * Why `number` and not `bigint`: LXD accepts up to 2^63-1 bytes, but the
 * engine adds and compares sizes on every placement and JSON carries them as
 * numbers. Every real memory or disk size is far below 2^53 bytes (8 PiB), so
 * sizes are plain numbers and anything above Number.MAX_SAFE_INTEGER is
 * refused with its own error ("size-too-large") instead of being silently
 * rounded. Parsing itself is done in bigint so LXD's own overflow check is
 * reproduced exactly.
 */
export const SIZE_MULTIPLIERS: Readonly<Record<string, bigint>> = {
  "": 1n,
  B: 1n,
  " bytes": 1n,
  kB: 1000n,
  MB: 1000n ** 2n,
  GB: 1000n ** 3n,
  TB: 1000n ** 4n,
  PB: 1000n ** 5n,
  EB: 1000n ** 6n,
  KiB: 1024n,
  MiB: 1024n ** 2n,
  GiB: 1024n ** 3n,
  TiB: 1024n ** 4n,
  PiB: 1024n ** 5n,
  EiB: 1024n ** 6n,
};

export const KiB = 1024;
export const MiB = 1024 * 1024;
export const GiB = 1024 * 1024 * 1024;

const INT64_MAX = 2n ** 63n - 1n;

export type SizeError =
  | { readonly kind: "invalid-size"; readonly input: string; readonly message: string }
  | {
      readonly kind: "percentage-size";
      readonly input: string;
      readonly message: string;
      readonly detail: string;
    }
  | { readonly kind: "size-integer-out-of-range"; readonly input: string; readonly message: string }
  | { readonly kind: "size-overflow"; readonly input: string; readonly message: string }
  | { readonly kind: "size-too-large"; readonly input: string; readonly message: string };

function isDigitCode(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * Parses an LXD byte size into bytes. The empty string is 0, as in LXD.
 * Error messages are LXD's own ("Invalid value: 50%", "Invalid integer: ...",
 * "Overflow multiplying A with B"). A percentage, which LXD accepts for
 * `limits.memory` on a running instance but not as a size, gets LXD's text
 * plus kind "percentage-size" and a detail explaining why.
 */
export function parseByteSize(input: string): Result<number, SizeError> {
  if (input === "") return ok(0);
  let digits = 0;
  while (digits < input.length && isDigitCode(input.charCodeAt(digits))) digits++;
  if (digits === 0) return err(invalidValue(input));
  const suffix = input.slice(digits);
  const value = BigInt(input.slice(0, digits));
  if (value > INT64_MAX) {
    return err({ kind: "size-integer-out-of-range", input, message: `Invalid integer: ${input}` });
  }
  const multiplier = SIZE_MULTIPLIERS[suffix];
  if (multiplier === undefined) return err(invalidValue(input));
  const bytes = value * multiplier;
  if (bytes > INT64_MAX) {
    return err({ kind: "size-overflow", input, message: `Overflow multiplying ${value} with ${multiplier}` });
  }
  if (bytes > BigInt(Number.MAX_SAFE_INTEGER)) {
    return err({
      kind: "size-too-large",
      input,
      message: `Size ${input} is ${bytes} bytes, more than the largest supported size of ${Number.MAX_SAFE_INTEGER} bytes`,
    });
  }
  return ok(Number(bytes));
}

function invalidValue(input: string): SizeError {
  const message = `Invalid value: ${input}`;
  if (input.endsWith("%")) {
    return {
      kind: "percentage-size",
      input,
      message,
      detail: `A percentage is not a size: ${input} would depend on the host's memory, give an amount such as 512MiB or 2GiB`,
    };
  }
  return { kind: "invalid-size", input, message };
}

const DECIMAL_UNITS = ["kB", "MB", "GB", "TB", "PB", "EB"] as const;
const BINARY_UNITS = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"] as const;

function formatScaled(bytes: number, precision: number, base: number, units: readonly string[]): string {
  if (bytes < base) return `${bytes}B`;
  let value = bytes;
  let unit = "";
  for (const candidate of units) {
    value /= base;
    unit = candidate;
    if (value < base) break;
  }
  return `${value.toFixed(precision)}${unit}`;
}

/** LXD `GetByteSizeString`: decimal units for people, e.g. 1500000 -> "1.50MB". Lossy. */
export function formatByteSize(bytes: number, precision = 2): string {
  return formatScaled(bytes, precision, 1000, DECIMAL_UNITS);
}

/** LXD `GetByteSizeStringIEC`: binary units for people, e.g. 1610612736 -> "1.50GiB". Lossy. */
export function formatByteSizeIEC(bytes: number, precision = 2): string {
  return formatScaled(bytes, precision, 1024, BINARY_UNITS);
}

/**
 * The shortest exact LXD size for a byte count: the largest unit (binary or
 * decimal) that divides it, e.g. 8589934592 -> "8GiB", 2000000000 -> "2GB",
 * 1000 -> "1kB", 1023 -> "1023B". `parseByteSize` reads it back unchanged.
 */
export function formatByteSizeExact(bytes: number): string {
  if (!Number.isSafeInteger(bytes) || bytes < 0) {
    throw new RangeError(`formatByteSizeExact needs a non-negative safe integer, got ${bytes}`);
  }
  let best = `${bytes}B`;
  let bestValue = bytes;
  if (bytes === 0) return best;
  for (const unit of [...BINARY_UNITS, ...DECIMAL_UNITS]) {
    const multiplier = Number(SIZE_MULTIPLIERS[unit]);
    if (bytes % multiplier === 0 && bytes / multiplier < bestValue) {
      bestValue = bytes / multiplier;
      best = `${bestValue}${unit}`;
    }
  }
  return best;
}

/** Bytes to MiB, rounded up: what an instance asks for as MEMORY_MB. */
export function bytesToMebibytesCeil(bytes: number): number {
  return Math.ceil(bytes / MiB);
}

/** Bytes to GiB, rounded up: what an instance asks for as DISK_GB. */
export function bytesToGibibytesCeil(bytes: number): number {
  return Math.ceil(bytes / GiB);
}
