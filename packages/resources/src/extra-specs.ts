import {
  CUSTOM_NAME_PATTERN,
  isCustomResourceClass,
  isStandardResourceClass,
  RESOURCE_CLASS_PATTERN,
} from "./resource-classes.js";
import { err, ok, type Result } from "./result.js";

/** Group suffix of granular keys (`resources1:`, `trait_NET:`); "" is the unsuffixed group. */
const GROUP = "([a-zA-Z0-9_-]{1,64})?";
const KEY_PATTERN = /^[a-zA-Z0-9-_:. ]{1,255}$/;
const RESOURCES_KEY = new RegExp(`^resources${GROUP}:(.*)$`);
const TRAIT_KEY = new RegExp(`^trait${GROUP}:(.*)$`);
const RESOURCES_NAMESPACE = new RegExp(`^resources${GROUP}$`);
const TRAIT_NAMESPACE = new RegExp(`^trait${GROUP}$`);
/** Python's int(): surrounding whitespace, a sign, digits with single underscores between them. */
const PYTHON_INT = /^\s*[+-]?[0-9]+(?:_[0-9]+)*\s*$/;
const MAX_VALUE_LENGTH = 255;

export type ExtraSpecs = Readonly<Record<string, string>>;

export interface ExtraSpecError {
  readonly kind: "invalid-extra-spec";
  readonly key: string;
  readonly value: unknown;
  readonly message: string;
}

export interface ExtraSpecValidationOptions {
  /**
   * Which non-CUSTOM trait names exist (os-traits standard traits, as the
   * server's trait registry knows them). Without it any well-formed
   * upper-case name is accepted as a standard trait.
   */
  readonly isStandardTrait?: (name: string) => boolean;
}

function failed(key: string, value: unknown, message: string): Result<ExtraSpecs, ExtraSpecError> {
  return err({ kind: "invalid-extra-spec", key, value, message });
}

function pythonRepr(value: unknown): string {
  return typeof value === "string" ? `'${value}'` : (JSON.stringify(value) ?? String(value));
}

/** Python's `int(text)` for the strings Nova converts; undefined where Python raises ValueError. */
export function pythonInt(text: string): number | undefined {
  if (!PYTHON_INT.test(text)) return undefined;
  return Number(text.trim().replaceAll("_", ""));
}

/**
 * Validates flavor extra specs as Nova's API does from microversion 2.86
 * (a 400 when the flavor is written), with Nova's messages:
 * - keys must match `^[a-zA-Z0-9-_:. ]{1,255}$`, values be strings or numbers
 *   (numbers are stringified) of at most 255 characters;
 * - `resources{group}:<CLASS>` needs a standard or CUSTOM_ class and an
 *   integer value ("Validation failed; 'x' is not a valid integer value."),
 *   at least 1 for a CUSTOM_ class and 0 for a standard one ("Validation
 *   failed; '-1' is less than the min value of '0'.", as Nova words a
 *   value below a validator's minimum: the flavor spec asks for a positive
 *   integer for custom classes, and `=0` is how a standard class is left
 *   out of scheduling);
 * - `trait{group}:<TRAIT>` needs required|forbidden;
 * - `group_policy` needs isolate|none;
 * - any other key in the `resources`/`trait` namespaces is "not a valid
 *   extra spec"; keys in other namespaces (or none) pass untouched.
 * Returns the specs with values as strings.
 */
export function validateExtraSpecs(
  specs: Readonly<Record<string, unknown>>,
  options: ExtraSpecValidationOptions = {},
): Result<ExtraSpecs, ExtraSpecError> {
  const isStandardTrait = options.isStandardTrait ?? ((name: string) => RESOURCE_CLASS_PATTERN.test(name));
  const out: Record<string, string> = {};
  for (const key of Object.keys(specs)) {
    const raw = specs[key];
    if (!KEY_PATTERN.test(key)) {
      return failed(
        key,
        raw,
        `Invalid input for field/attribute extra_specs. '${key}' does not match any of the regexes: '^[a-zA-Z0-9-_:. ]{1,255}$'`,
      );
    }
    if (typeof raw !== "string" && (typeof raw !== "number" || !Number.isFinite(raw))) {
      return failed(
        key,
        raw,
        `Invalid input for field/attribute ${key}. Value: ${pythonRepr(raw)}. ${pythonRepr(raw)} is not of type 'string', 'number'`,
      );
    }
    const value = String(raw);
    if (value.length > MAX_VALUE_LENGTH) {
      return failed(
        key,
        raw,
        `Invalid input for field/attribute ${key}. Value: ${value}. '${value}' is too long`,
      );
    }
    const problem = validateOne(key, value, isStandardTrait);
    if (problem !== undefined) return failed(key, raw, problem);
    out[key] = value;
  }
  return ok(out);
}

function validateOne(
  key: string,
  value: string,
  isStandardTrait: (name: string) => boolean,
): string | undefined {
  if (key === "group_policy") {
    return value === "isolate" || value === "none"
      ? undefined
      : `Validation failed; '${value}' is not one of: isolate, none.`;
  }
  const resources = RESOURCES_KEY.exec(key);
  const resourceClass = resources?.[2];
  if (
    resourceClass !== undefined &&
    (isStandardResourceClass(resourceClass) || CUSTOM_NAME_PATTERN.test(resourceClass))
  ) {
    const amount = pythonInt(value);
    if (amount === undefined) return `Validation failed; '${value}' is not a valid integer value.`;
    // The flavor spec (Nova): a custom class takes a positive amount; a standard class may be
    // overridden, down to 0 (not scheduled on). Nova's own words for a value below its minimum.
    const min = isStandardResourceClass(resourceClass) ? 0 : 1;
    return amount < min ? `Validation failed; '${value}' is less than the min value of '${min}'.` : undefined;
  }
  const trait = TRAIT_KEY.exec(key);
  const traitName = trait?.[2];
  if (traitName !== undefined && (CUSTOM_NAME_PATTERN.test(traitName) || isStandardTrait(traitName))) {
    return value === "required" || value === "forbidden"
      ? undefined
      : `Validation failed; '${value}' is not one of: required, forbidden.`;
  }
  const colon = key.indexOf(":");
  if (colon === -1) return undefined;
  const namespace = key.slice(0, colon);
  if (RESOURCES_NAMESPACE.test(namespace) || TRAIT_NAMESPACE.test(namespace)) {
    return `Validation failed; extra spec '${key}' does not appear to be a valid extra spec.`;
  }
  return undefined;
}

/** One granular request group as read from extra specs. */
export interface ParsedGroup {
  readonly resources: Record<string, number>;
  readonly required_traits: Set<string>;
  readonly forbidden_traits: Set<string>;
}

export interface ParsedExtraSpecs {
  /** By suffix; "" is the unsuffixed group. Insertion order = first key seen. */
  readonly groups: Map<string, ParsedGroup>;
  readonly group_policy: "none" | "isolate" | undefined;
  /** What Nova would log and ignore. */
  readonly warnings: readonly string[];
}

function groupOf(groups: Map<string, ParsedGroup>, suffix: string): ParsedGroup {
  let group = groups.get(suffix);
  if (group === undefined) {
    group = { resources: {}, required_traits: new Set(), forbidden_traits: new Set() };
    groups.set(suffix, group);
  }
  return group;
}

/**
 * Reads extra specs the way Nova's scheduler does (ResourceRequest): lenient,
 * warning about and ignoring what it can't use, so flavors written before
 * validation existed still schedule. Later keys for the same class overwrite.
 */
export function parseExtraSpecs(specs: ExtraSpecs): ParsedExtraSpecs {
  const groups = new Map<string, ParsedGroup>();
  const warnings: string[] = [];
  let groupPolicy: "none" | "isolate" | undefined;
  for (const key of Object.keys(specs)) {
    const value = specs[key] as string;
    if (key === "group_policy") {
      if (value === "none" || value === "isolate") groupPolicy = value;
      else warnings.push(`Invalid group_policy '${value}'. Valid values are 'none' and 'isolate'.`);
      continue;
    }
    const resources = RESOURCES_KEY.exec(key);
    if (resources) {
      const suffix = resources[1] ?? "";
      const resourceClass = resources[2] as string;
      if (!(isCustomResourceClass(resourceClass) || isStandardResourceClass(resourceClass))) {
        warnings.push(`Received an invalid ResourceClass '${resourceClass}' in extra_specs.`);
        continue;
      }
      const amount = pythonInt(value);
      if (amount === undefined || amount < 0) {
        warnings.push(
          `Resource amounts must be nonnegative integers. Received '${value}' for key resources${suffix}.`,
        );
        continue;
      }
      groupOf(groups, suffix).resources[resourceClass] = amount;
      continue;
    }
    const trait = TRAIT_KEY.exec(key);
    if (trait) {
      const suffix = trait[1] ?? "";
      const traitName = trait[2] as string;
      if (value === "required") groupOf(groups, suffix).required_traits.add(traitName);
      else if (value === "forbidden") groupOf(groups, suffix).forbidden_traits.add(traitName);
      else warnings.push(`Only (required, forbidden) traits are supported. Received '${value}'.`);
    }
  }
  return { groups, group_policy: groupPolicy, warnings };
}
