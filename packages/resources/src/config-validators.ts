/**
 * The value checks of LXD's and Incus's `shared/validate` package, with
 * their error texts, for the instance config key table
 * (instance-config-keys.ts). Each returns undefined when the value is
 * valid, else the text LXD answers. `optional` lets "" through as LXD's
 * `validate.Optional` does.
 */
import { parseCpuLimit } from "./cpu.js";
import { goParseInt, goQuote } from "./go-text.js";
import { parseMemoryLimit } from "./memory-limit.js";
import { parseByteSize } from "./sizes.js";

export type ValueCheck = (value: string) => string | undefined;

export const isAny: ValueCheck = () => undefined;

export function optional(check: ValueCheck): ValueCheck {
  return (value) => (value === "" ? undefined : check(value));
}

const BOOLEAN_TEXTS = new Set(["true", "false", "yes", "no", "1", "0", "on", "off"]);

export const isBool: ValueCheck = (value) =>
  BOOLEAN_TEXTS.has(value.toLowerCase()) ? undefined : `Invalid value for a boolean ${goQuote(value)}`;

export const isInt64: ValueCheck = (value) =>
  goParseInt(value).ok ? undefined : `Invalid value for an integer ${goQuote(value)}`;

export const isUint32: ValueCheck = (value) => {
  if (!/^[0-9]+$/.test(value)) {
    return `Invalid value for uint32 ${goQuote(value)}: strconv.ParseUint: parsing ${goQuote(value)}: invalid syntax`;
  }
  return BigInt(value) <= 0xffffffffn
    ? undefined
    : `Invalid value for uint32 ${goQuote(value)}: strconv.ParseUint: parsing ${goQuote(value)}: value out of range`;
};

/** LXD's `validate.IsPriority`: an integer from 0 to 10. */
export const isPriority: ValueCheck = (value) => {
  const parsed = goParseInt(value);
  if (!parsed.ok) return `Invalid value for an integer ${goQuote(value)}`;
  return parsed.value < 0n || parsed.value > 10n
    ? `Invalid value for a limit ${goQuote(value)}. Must be between 0 and 10`
    : undefined;
};

/** LXD's `validate.IsOneOf`: Go prints the allowed list as `[a b c]`. */
export function isOneOf(...allowed: string[]): ValueCheck {
  return (value) =>
    allowed.includes(value)
      ? undefined
      : `Invalid value ${goQuote(value)} (not one of [${allowed.join(" ")}])`;
}

export const isSize: ValueCheck = (value) => {
  const parsed = parseByteSize(value);
  return parsed.ok ? undefined : parsed.error.message;
};

/** `limits.cpu`: a CPU count or a cpuset, as placement reads it (cpu.ts). */
export const isCpuLimit: ValueCheck = (value) => {
  const parsed = parseCpuLimit(value);
  return parsed.ok ? undefined : parsed.error.message;
};

/** `limits.memory`: a size or a share of the host's memory (memory-limit.ts). */
export const isMemoryLimit: ValueCheck = (value) => {
  const parsed = parseMemoryLimit(value);
  return parsed.ok ? undefined : parsed.error.message;
};

/** `limits.cpu.allowance`: `50%` or `25ms/100ms` (Go `strconv.Atoi` on each number). */
export const isCpuAllowance: ValueCheck = (value) => {
  if (value.endsWith("%")) return atoiProblem(value.slice(0, -1));
  const fields = value.split("/");
  if (fields.length < 2) return `Invalid allowance: ${value}`;
  const [quota, period] = [fields[0] as string, fields.slice(1).join("/")];
  return atoiProblem(quota.replace(/ms$/, "")) ?? atoiProblem(period.replace(/ms$/, ""));
};

function atoiProblem(text: string): string | undefined {
  const parsed = goParseInt(text);
  return parsed.ok ? undefined : parsed.message.replace("strconv.ParseInt", "strconv.Atoi");
}
