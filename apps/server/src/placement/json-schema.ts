/**
 * The subset of JSON Schema that Placement's request schemas use, checked
 * with the answers Placement gives: `JSON does not validate: <message>`
 * followed by `Failed validating '<keyword>' in schema[...]`, where the
 * message is worded as Python's jsonschema words it (the gabbi tests look
 * for those words). Only the first failure is reported, as Placement does.
 */
import { badRequest, type PlacementError } from "./placement-error.js";

export type Schema =
  | { type: "string"; pattern?: string; minLength?: number; maxLength?: number; format?: "uuid" }
  | { type: "integer"; minimum?: number; maximum?: number }
  | { type: "number"; minimum?: number; maximum?: number }
  | { type: "boolean" }
  | { type: "null" }
  | { type: "array"; items?: Schema; uniqueItems?: boolean; maxItems?: number; minItems?: number }
  | {
      type: "object";
      properties?: Record<string, Schema>;
      required?: string[];
      additionalProperties?: boolean | Schema;
      patternProperties?: Record<string, Schema>;
      minProperties?: number;
    }
  | { anyOf: Schema[] };

interface Failure {
  keyword: string;
  message: string;
}

/**
 * A failure and where it is: Python-style subscripts into the instance and
 * into the schema. They are written on the way out of a failed check
 * (`under`), so a valid body costs no text (every claim's body is checked).
 */
interface Located extends Failure {
  instance: string;
  schema: string;
}

const UUID = /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/;

/** Python's repr of a JSON value, as jsonschema messages show it. */
export function pythonRepr(value: unknown): string {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string") return `'${value.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    return `{${entries.map(([k, v]) => `${pythonRepr(k)}: ${pythonRepr(v)}`).join(", ")}}`;
  }
  return String(value);
}

function typeOk(value: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    default:
      return typeof value === "object" && value !== null && !Array.isArray(value);
  }
}

/** A failure found one step down (`instance` and `schema`: that step's subscripts), located from here. */
const under = (failure: Located, instance: string, schema: string): Located => ({
  ...failure,
  instance: instance + failure.instance,
  schema: schema + failure.schema,
});

/** The patterns of the schemas (a fixed set), each compiled once. */
const compiled = new Map<string, RegExp>();

function regexOf(pattern: string): RegExp {
  let regex = compiled.get(pattern);
  if (regex === undefined) {
    regex = new RegExp(pattern, "u");
    compiled.set(pattern, regex);
  }
  return regex;
}

function check(value: unknown, schema: Schema): Located | undefined {
  const local = checkLocal(value, schema);
  if (local === undefined || "instance" in local) return local;
  return { ...local, instance: "", schema: "" };
}

/** A failure of this schema itself, or a located one below it. */
function checkLocal(value: unknown, schema: Schema): Failure | Located | undefined {
  if ("anyOf" in schema) {
    if (schema.anyOf.some((option) => check(value, option) === undefined)) return undefined;
    return { keyword: "anyOf", message: `${pythonRepr(value)} is not valid under any of the given schemas` };
  }
  if (!typeOk(value, schema.type)) {
    return { keyword: "type", message: `${pythonRepr(value)} is not of type '${schema.type}'` };
  }
  switch (schema.type) {
    case "string":
      return checkString(value as string, schema);
    case "integer":
    case "number": {
      const n = value as number;
      if (schema.minimum !== undefined && n < schema.minimum)
        return { keyword: "minimum", message: `${n} is less than the minimum of ${schema.minimum}` };
      if (schema.maximum !== undefined && n > schema.maximum)
        return { keyword: "maximum", message: `${n} is greater than the maximum of ${schema.maximum}` };
      return undefined;
    }
    case "array":
      return checkArray(value as unknown[], schema);
    case "object":
      return checkObject(value as Record<string, unknown>, schema);
    default:
      return undefined;
  }
}

function checkString(value: string, schema: Extract<Schema, { type: "string" }>): Failure | undefined {
  // Lengths in code points, as Python counts them.
  const length = schema.minLength === undefined && schema.maxLength === undefined ? 0 : [...value].length;
  if (schema.minLength !== undefined && length < schema.minLength)
    return { keyword: "minLength", message: `${pythonRepr(value)} is too short` };
  if (schema.maxLength !== undefined && length > schema.maxLength)
    return { keyword: "maxLength", message: `${pythonRepr(value)} is too long` };
  if (schema.pattern !== undefined && !regexOf(schema.pattern).test(value))
    return {
      keyword: "pattern",
      message: `${pythonRepr(value)} does not match ${pythonRepr(schema.pattern)}`,
    };
  if (schema.format === "uuid" && !UUID.test(value))
    return { keyword: "format", message: `${pythonRepr(value)} is not a 'uuid'` };
  return undefined;
}

function checkArray(
  value: unknown[],
  schema: Extract<Schema, { type: "array" }>,
): Failure | Located | undefined {
  if (schema.minItems !== undefined && value.length < schema.minItems)
    return { keyword: "minItems", message: `${pythonRepr(value)} is too short` };
  if (schema.maxItems !== undefined && value.length > schema.maxItems)
    return { keyword: "maxItems", message: `${pythonRepr(value)} is too long` };
  if (schema.uniqueItems === true && new Set(value.map((item) => JSON.stringify(item))).size !== value.length)
    return { keyword: "uniqueItems", message: `${pythonRepr(value)} has non-unique elements` };
  if (schema.items !== undefined) {
    for (const [index, item] of value.entries()) {
      const failure = check(item, schema.items);
      if (failure !== undefined) return under(failure, `[${index}]`, "['items']");
    }
  }
  return undefined;
}

function checkObject(
  value: Record<string, unknown>,
  schema: Extract<Schema, { type: "object" }>,
): Failure | Located | undefined {
  const keys = Object.keys(value);
  if (schema.minProperties !== undefined && keys.length < schema.minProperties)
    return { keyword: "minProperties", message: `${pythonRepr(value)} does not have enough properties` };
  for (const name of schema.required ?? [])
    if (!(name in value))
      return { keyword: "required", message: `${pythonRepr(name)} is a required property` };
  const extra: string[] = [];
  for (const key of keys) {
    const known = schema.properties?.[key];
    if (known !== undefined) {
      const failure = check(value[key], known);
      if (failure !== undefined)
        return under(failure, `[${pythonRepr(key)}]`, `['properties'][${pythonRepr(key)}]`);
      continue;
    }
    const pattern = Object.keys(schema.patternProperties ?? {}).find((p) => regexOf(p).test(key));
    if (pattern !== undefined) {
      const failure = check(value[key], schema.patternProperties?.[pattern] as Schema);
      if (failure !== undefined)
        return under(failure, `[${pythonRepr(key)}]`, `['patternProperties'][${pythonRepr(pattern)}]`);
      continue;
    }
    if (typeof schema.additionalProperties === "object") {
      const failure = check(value[key], schema.additionalProperties);
      if (failure !== undefined) return under(failure, `[${pythonRepr(key)}]`, "['additionalProperties']");
    } else if (schema.additionalProperties === false) extra.push(key);
  }
  if (extra.length > 0) {
    const patterns = Object.keys(schema.patternProperties ?? {});
    if (patterns.length > 0) {
      const names = [...extra].sort().map(pythonRepr).join(", ");
      const verb = extra.length === 1 ? "does" : "do";
      return {
        keyword: "additionalProperties",
        message: `${names} ${verb} not match any of the regexes: ${patterns.map(pythonRepr).join(", ")}`,
      };
    }
    const names = extra.map(pythonRepr).join(", ");
    const verb = extra.length === 1 ? "was" : "were";
    return {
      keyword: "additionalProperties",
      message: `Additional properties are not allowed (${names} ${verb} unexpected)`,
    };
  }
  return undefined;
}

/** Throws Placement's 400 when `value` does not satisfy `schema`. */
export function validateSchema(value: unknown, schema: Schema): void {
  const failure = check(value, schema);
  if (failure !== undefined) throw schemaError(failure);
}

function schemaError(failure: Located): PlacementError {
  return badRequest(
    `JSON does not validate: ${failure.message}\n\nFailed validating '${failure.keyword}' in schema${failure.schema}\n\nOn instance${failure.instance}`,
  );
}
