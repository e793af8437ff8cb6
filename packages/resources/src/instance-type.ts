import { err, ok, type Result } from "./result.js";

export type InstanceTypeError =
  | { readonly kind: "unknown-instance-type"; readonly input: string; readonly message: string }
  | { readonly kind: "bad-instance-type"; readonly input: string; readonly message: string };

/** Config keys an instance type sets, as LXD writes them. */
export interface InstanceTypeLimits {
  readonly "limits.cpu"?: string;
  readonly "limits.cpu.allowance"?: string;
  readonly "limits.memory"?: string;
}

// Go's ParseFloat syntax for decimal numbers (hex floats are not worth a
// second grammar here: nobody writes c0x1p2-m4).
const DECIMAL_FLOAT = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;
const FLOAT32_MAX = 3.4028234663852886e38;

function parseFloat32(text: string): number | undefined {
  if (!DECIMAL_FLOAT.test(text)) return undefined;
  const value = Number(text);
  // Go's ParseFloat(s, 32) fails with "value out of range" beyond float32.
  if (Math.abs(value) > FLOAT32_MAX) return undefined;
  return Math.fround(value);
}

/**
 * Expands an LXD custom instance type (`c2-m4`: 2 CPUs, 4 GiB; `c0.5-m0.5`:
 * one CPU at 50% allowance, 512 MiB) into the config it sets, with LXD's
 * float32 arithmetic and texts ("Provided instance type doesn't exist: X",
 * "Bad custom instance type: X"). Named cloud types (`t2.micro`,
 * `aws:t2.micro`) come from LXD's downloaded catalogue, which Berth does not
 * carry: they are reported as not existing. Infinite or NaN amounts, which
 * LXD would turn into garbage limits, are refused as bad.
 */
export function parseInstanceType(input: string): Result<InstanceTypeLimits, InstanceTypeError> {
  const unknown = (): Result<InstanceTypeLimits, InstanceTypeError> =>
    err({ kind: "unknown-instance-type", input, message: `Provided instance type doesn't exist: ${input}` });
  if (input === "" || input.includes(":")) return unknown();
  let cpu = 0;
  let memory = 0;
  for (const field of input.split("-")) {
    const letter = field[0];
    if (field.length < 2 || (letter !== "c" && letter !== "m")) return unknown();
    const amount = parseFloat32(field.slice(1));
    if (amount === undefined) {
      return err({ kind: "bad-instance-type", input, message: `Bad custom instance type: ${input}` });
    }
    if (letter === "c") cpu = amount;
    else memory = amount;
  }
  const limits: { -readonly [K in keyof InstanceTypeLimits]: string } = {};
  if (cpu > 0) {
    let cores = Math.trunc(cpu);
    if (Math.fround(cores) < cpu) cores++;
    const cpuTime = Math.trunc(Math.fround(Math.fround(cpu / cores) * 100));
    limits["limits.cpu"] = String(cores);
    if (cpuTime < 100) limits["limits.cpu.allowance"] = `${cpuTime}%`;
  }
  if (memory > 0) {
    limits["limits.memory"] = `${Math.trunc(Math.fround(memory * 1024))}MiB`;
  }
  return ok(limits);
}
