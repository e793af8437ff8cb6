import { err, ok, type Result } from "./result.js";
import { MiB, parseByteSize, type SizeError } from "./sizes.js";

/**
 * `limits.memory` as LXD and Incus read it: a size (`512MiB`), or a share
 * of the host's memory (`50%`). LXD resolves a share only when it applies
 * the limit, on the member the instance runs on:
 * `(MemTotal / 100) * percent` in integer arithmetic (the driver's
 * `ParseMemoryStr`, MemTotal from `/proc/meminfo`). Berth resolves it the
 * same way against each candidate member's memory (`memberMemoryBytes`),
 * so the amount an instance asks for depends on where it lands.
 */
export type MemoryLimit =
  | { readonly kind: "size"; readonly bytes: number }
  | { readonly kind: "percentage"; readonly percent: number };

export type MemoryLimitError =
  | { readonly kind: "invalid-memory-percentage"; readonly input: string; readonly message: string }
  | SizeError;

/** Go's `strconv.ParseInt(text, 10, 64)`: an optional sign and decimal digits; Go's error texts. */
function parseGoInt64(text: string): Result<bigint, string> {
  if (!/^[+-]?[0-9]+$/.test(text)) return err(`strconv.ParseInt: parsing ${goQuote(text)}: invalid syntax`);
  const value = BigInt(text);
  if (value > 2n ** 63n - 1n || value < -(2n ** 63n)) {
    return err(`strconv.ParseInt: parsing ${goQuote(text)}: value out of range`);
  }
  return ok(value);
}

/** Go's `%q` for the plain texts a config value holds (quotes and backslashes escaped). */
function goQuote(text: string): string {
  return JSON.stringify(text);
}

/**
 * Parses `limits.memory` with the instance config validator's rules: a
 * percentage is an integer (Go's ParseInt: `abc%` is `strconv.ParseInt:
 * parsing "abc": invalid syntax`) that is not 0 (`Memory limit can't be
 * 0%`, Incus's text). Berth also refuses a negative share (`-5%`), which
 * LXD's validator lets through and then fails to apply when the instance
 * starts. A share above 100% is valid, as in LXD: it asks for more than
 * the member's memory and so fits only where memory is overcommitted
 * (`MEMORY_MB` allocation ratio). Anything else is a size (`parseByteSize`).
 */
export function parseMemoryLimit(input: string): Result<MemoryLimit, MemoryLimitError> {
  if (input.endsWith("%")) {
    const parsed = parseGoInt64(input.slice(0, -1));
    if (!parsed.ok) return err(percentageError(input, parsed.error));
    if (parsed.value === 0n) return err(percentageError(input, "Memory limit can't be 0%"));
    if (parsed.value < 0n) {
      return err(percentageError(input, `Memory limit can't be a negative percentage of the host's memory`));
    }
    if (parsed.value > BigInt(Number.MAX_SAFE_INTEGER)) {
      return err(
        percentageError(
          input,
          `strconv.ParseInt: parsing ${goQuote(input.slice(0, -1))}: value out of range`,
        ),
      );
    }
    return ok({ kind: "percentage", percent: Number(parsed.value) });
  }
  const bytes = parseByteSize(input);
  if (!bytes.ok) return bytes;
  return ok({ kind: "size", bytes: bytes.value });
}

function percentageError(input: string, message: string): MemoryLimitError {
  return { kind: "invalid-memory-percentage", input, message };
}

/**
 * LXD's resolution of a share against a member's memory in bytes:
 * `(total / 100) * percent`, the division first and truncated (so 50% of
 * 8 GiB + 99 bytes is exactly 4 GiB + 49 bytes less than half).
 */
export function resolveMemoryPercentage(percent: number, memberBytes: number): number {
  return Math.floor(memberBytes / 100) * percent;
}

/**
 * A member's memory in bytes, what a share is a share of: the total it
 * reports (LXD `api.Resources` `memory.total`, MemTotal as LXD reads it)
 * when it reports one, else its `MEMORY_MB` inventory's total (whole MiB;
 * a member that never reported resources, sized by its operator), else
 * undefined (a member without memory, which no share fits on).
 */
export function memberMemoryBytes(
  reported: unknown,
  memoryInventoryTotalMb: number | undefined,
): number | undefined {
  if (typeof reported === "object" && reported !== null) {
    const memory = (reported as { memory?: unknown }).memory;
    if (typeof memory === "object" && memory !== null) {
      const total = (memory as { total?: unknown }).total;
      if (typeof total === "number" && Number.isSafeInteger(total) && total > 0) return total;
    }
  }
  return memoryInventoryTotalMb === undefined ? undefined : memoryInventoryTotalMb * MiB;
}
