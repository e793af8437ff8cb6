/**
 * Placement's query-string syntax (`member_of=in:a,b`, `required=A,!B`,
 * `required=in:A,B`, `resources=VCPU:2,DISK_GB:10`), parsed into the
 * engine's filter structures with Placement's 400 texts. Which syntax a
 * microversion allows is decided here; what the filters mean is the
 * engine's (`filterProviders`).
 */
import { atLeast, type Microversion } from "./microversion.js";
import { badRequest } from "./placement-error.js";

const UUID = /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/;
const INVALID = "Invalid query string parameters";

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** Placement's uuid form with dashes, lower case (it accepts dashless input). */
export function normalizeUuid(value: string): string {
  const hex = value.replaceAll("-", "").toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Refuses parameters outside `allowed` as Placement's query schemas do. */
export function checkQueryKeys(query: URLSearchParams, allowed: readonly string[]): void {
  const extra = [...new Set(query.keys())].filter((key) => !allowed.includes(key));
  if (extra.length === 0) return;
  const names = extra.map((key) => `'${key}'`).join(", ");
  throw badRequest(
    `${INVALID}: Additional properties are not allowed (${names} ${extra.length === 1 ? "was" : "were"} unexpected)`,
  );
}

export interface MemberOf {
  memberOf: string[][];
  notMemberOf: string[];
}

/** Every `member_of` value: `uuid`, `in:u1,u2`, and from 1.32 `!uuid` / `!in:u1,u2`. */
export function parseMemberOf(values: readonly string[], version: Microversion): MemberOf {
  const out: MemberOf = { memberOf: [], notMemberOf: [] };
  for (const raw of values) {
    let value = raw;
    const forbidden = value.startsWith("!");
    if (forbidden) {
      if (!atLeast(version, 32))
        throw badRequest("Forbidden member_of parameters are not supported in the specified microversion");
      value = value.slice(1);
    }
    const anyOf = value.startsWith("in:");
    if (anyOf) value = value.slice(3);
    else if (value.includes(","))
      throw badRequest(
        "Multiple values for 'member_of' must be prefixed with the 'in:' or '!in:' keyword using the valid microversion.",
      );
    const uuids = value.split(",");
    if (uuids.some((u) => !isUuid(u)))
      throw badRequest(`${INVALID}: Expected 'member_of' parameter to contain valid UUID(s). Got: ${raw}`);
    const normalized = uuids.map(normalizeUuid);
    if (!forbidden) out.memberOf.push(normalized);
    else if (anyOf) out.notMemberOf.push(...normalized);
    else {
      // "!a,b" is not a form Placement accepts: forbidden lists need "!in:".
      if (normalized.length > 1)
        throw badRequest(`${INVALID}: Expected 'member_of' parameter to contain valid UUID(s). Got: ${raw}`);
      out.notMemberOf.push(...normalized);
    }
  }
  return out;
}

export interface RequiredTraits {
  required: string[][];
  forbidden: string[];
}

/** Every `required` value: `A,B` (all), from 1.22 `!C` (forbidden), from 1.39 `in:A,B` (any of). */
export function parseRequired(values: readonly string[], version: Microversion): RequiredTraits {
  const form = atLeast(version, 22) ? "HW_CPU_X86_VMX,!CUSTOM_MAGIC" : "HW_CPU_X86_VMX,CUSTOM_MAGIC";
  const bad = (raw: string) =>
    badRequest(`${INVALID}: Expected 'required' parameter value of the form: ${form}. Got: ${raw}`);
  const out: RequiredTraits = { required: [], forbidden: [] };
  for (const raw of values) {
    if (raw.startsWith("in:")) {
      if (!atLeast(version, 39))
        throw badRequest(
          "The format 'in:HW_CPU_X86_VMX,CUSTOM_MAGIC' only supported since microversion 1.39.",
        );
      const names = raw
        .slice(3)
        .split(",")
        .map((n) => n.trim());
      if (names.some((n) => n === "" || n.startsWith("!"))) throw bad(raw);
      out.required.push(names);
      continue;
    }
    // Placement strips blanks around each name.
    for (const name of raw.split(",").map((n) => n.trim())) {
      if (name === "" || name === "!") throw bad(raw);
      if (name.startsWith("!")) {
        if (!atLeast(version, 22)) throw bad(raw);
        out.forbidden.push(name.slice(1));
      } else out.required.push([name]);
    }
  }
  return out;
}

/** `resources=VCPU:2,DISK_GB:10` into amounts by class (class existence is checked by the caller). */
export function parseResources(raw: string): Record<string, number> {
  if (raw === "")
    throw badRequest(
      "Badly formed resources parameter. Expected resources query string parameter in form: ?resources=VCPU:2,MEMORY_MB:1024. Got: empty string.",
    );
  const out: Record<string, number> = {};
  for (const part of raw.split(",")) {
    const [resourceClass, amount, ...rest] = part.split(":");
    if (resourceClass === undefined || resourceClass === "" || amount === undefined || rest.length > 0) {
      throw badRequest(
        `Badly formed resources parameter. Expected resources query string parameter in form: ?resources=VCPU:2,MEMORY_MB:1024. Got: ${part}.`,
      );
    }
    // Python's int(): blanks around the digits and a sign are fine.
    if (!/^\s*[-+]?\d+\s*$/.test(amount))
      throw badRequest(
        `Requested resource ${resourceClass} expected positive integer amount. Got: ${amount}.`,
      );
    const value = Number(amount);
    if (value < 1)
      throw badRequest(`Requested resource ${resourceClass} requires amount >= 1. Got: ${value}.`);
    out[resourceClass] = value;
  }
  return out;
}
