import { type ExtraSpecError, type ExtraSpecValidationOptions, validateExtraSpecs } from "./extra-specs.js";
import { MAX_INT } from "./inventory.js";
import { err, ok, type Result } from "./result.js";

/** A stored Berth flavor: Nova's sizing fields plus extra specs. */
export interface Flavor {
  readonly vcpus: number;
  readonly memory_mb: number;
  readonly disk_gb: number;
  readonly extra_specs: Readonly<Record<string, string>>;
}

export interface FlavorInput {
  readonly vcpus: unknown;
  readonly memory_mb: unknown;
  readonly disk_gb?: unknown;
  readonly extra_specs?: Readonly<Record<string, unknown>>;
}

export type FlavorError =
  | {
      readonly kind: "invalid-flavor-field";
      readonly field: "vcpus" | "memory_mb" | "disk_gb";
      readonly value: unknown;
      readonly message: string;
    }
  | ExtraSpecError;

// Nova's flavor bounds: vcpus and ram at least 1, disk at least 0, all 32-bit.
const MINIMUMS = { vcpus: 1, memory_mb: 1, disk_gb: 0 } as const;

function checkField(field: "vcpus" | "memory_mb" | "disk_gb", value: unknown): FlavorError | undefined {
  const problem = (detail: string): FlavorError => ({
    kind: "invalid-flavor-field",
    field,
    value,
    message: `Invalid input for field/attribute ${field}. Value: ${String(value)}. ${detail}`,
  });
  if (typeof value !== "number" || !Number.isInteger(value)) {
    return problem(`${typeof value === "string" ? `'${value}'` : String(value)} is not of type 'integer'`);
  }
  if (value < MINIMUMS[field]) return problem(`${value} is less than the minimum of ${MINIMUMS[field]}`);
  if (value > MAX_INT) return problem(`${value} is greater than the maximum of ${MAX_INT}`);
  return undefined;
}

/**
 * Validates a flavor being written: sizes within Nova's bounds (`disk_gb`
 * defaults to 0), extra specs by Nova's rules (see validateExtraSpecs).
 */
export function validateFlavor(
  input: FlavorInput,
  options: ExtraSpecValidationOptions = {},
): Result<Flavor, FlavorError> {
  const diskGb = input.disk_gb ?? 0;
  for (const [field, value] of [
    ["vcpus", input.vcpus],
    ["memory_mb", input.memory_mb],
    ["disk_gb", diskGb],
  ] as const) {
    const problem = checkField(field, value);
    if (problem) return err(problem);
  }
  const specs = validateExtraSpecs(input.extra_specs ?? {}, options);
  if (!specs.ok) return specs;
  return ok({
    vcpus: input.vcpus as number,
    memory_mb: input.memory_mb as number,
    disk_gb: diskGb as number,
    extra_specs: specs.value,
  });
}
