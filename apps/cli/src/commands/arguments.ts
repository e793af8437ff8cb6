import { readFileSync } from "node:fs";
import { usageError } from "../exit-codes.js";
import { parseYaml } from "../output/yaml.js";

/** Commander collector for repeatable options (`-c a=1 -c b=2`). */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** `KEY=VALUE` pairs into a map; the value may itself contain `=`. */
export function parseKeyValues(pairs: string[], flag: string): Record<string, string> {
  const map: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at <= 0) throw usageError(`Invalid ${flag} "${pair}": expected KEY=VALUE`);
    map[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return map;
}

/** A whole non-negative integer from a flag, with an error that names the flag. */
export function parseCount(value: string, flag: string): number {
  if (!/^\d+$/.test(value)) throw usageError(`Invalid ${flag} "${value}": expected a whole number`);
  return Number(value);
}

/** A number (allocation ratios may be fractional). */
export function parseNumber(value: string, flag: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n))
    throw usageError(`Invalid ${flag} "${value}": expected a number`);
  return n;
}

export function readTextFile(path: string, what: string): string {
  try {
    return path === "-" ? readFileSync(0, "utf8") : readFileSync(path, "utf8");
  } catch (error) {
    throw usageError(`Cannot read ${what} ${path}: ${(error as NodeJS.ErrnoException).message}`);
  }
}

/** A YAML or JSON document (JSON is YAML 1.2), with the file named in any error. */
export function readDocument(path: string, what: string): unknown {
  const text = readTextFile(path, what);
  try {
    return parseYaml(text);
  } catch (error) {
    throw usageError(`Invalid ${what} ${path}: ${(error as Error).message}`);
  }
}
