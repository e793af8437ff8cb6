import { goParseInt, goParseUint, goQuote } from "./go-text.js";
import { err, ok, type Result } from "./result.js";

export type CpuLimitError =
  | { readonly kind: "invalid-cpuset"; readonly input: string; readonly message: string }
  | { readonly kind: "cpu-count-too-large"; readonly input: string; readonly message: string };

/**
 * Counts the CPUs of a cpuset such as `0-3,8` the way LXD's
 * `resources.ParseCpuset` does: comma-separated ids or `low-high` ranges,
 * each id a Go int64. Like LXD, duplicates count twice and a reversed range
 * (`3-1`) counts zero. Unlike LXD the count is computed, not enumerated, so a
 * huge range cannot exhaust memory.
 */
export function countCpuset(input: string): Result<number, CpuLimitError> {
  let count = 0n;
  for (const chunk of input.split(",")) {
    const dash = chunk.indexOf("-");
    if (dash === -1) {
      const single = goParseInt(chunk);
      if (!single.ok) return err(invalidCpuset(input, `Invalid CPU/NUMA set value: ${single.message}`));
      count += 1n;
      continue;
    }
    const before = chunk.slice(0, dash);
    const after = chunk.slice(dash + 1);
    if (after === "") return err(invalidCpuset(input, `Invalid CPU/NUMA set value: ${goQuote(input)}`));
    const low = goParseInt(before);
    if (!low.ok) return err(invalidCpuset(input, `Invalid CPU/NUMA set value: ${low.message}`));
    const high = goParseInt(after);
    if (!high.ok) return err(invalidCpuset(input, `Invalid CPU/NUMA set value: ${high.message}`));
    if (high.value >= low.value) count += high.value - low.value + 1n;
  }
  return safeCount(input, count);
}

function invalidCpuset(input: string, inner: string): CpuLimitError {
  return { kind: "invalid-cpuset", input, message: `Invalid cpuset value ${goQuote(input)}: ${inner}` };
}

function safeCount(input: string, count: bigint): Result<number, CpuLimitError> {
  if (count > BigInt(Number.MAX_SAFE_INTEGER)) {
    return err({
      kind: "cpu-count-too-large",
      input,
      message: `CPU limit ${input} asks for ${count} CPUs, more than the largest supported count of ${Number.MAX_SAFE_INTEGER}`,
    });
  }
  return ok(Number(count));
}

/**
 * The number of CPUs an LXD `limits.cpu` value asks for: a plain unsigned
 * integer is a count ("4"); anything else is read as a cpuset of pinned
 * CPUs ("0-3,8" = 5), exactly in LXD's order (so "+2" is the cpuset {2}).
 */
export function parseCpuLimit(input: string): Result<number, CpuLimitError> {
  const asCount = goParseUint(input);
  if (asCount.ok) return safeCount(input, asCount.value);
  return countCpuset(input);
}
