/**
 * The query parameters `GET /resource_providers` and
 * `GET /allocation_candidates` share (`member_of`, `required`, `resources`),
 * parsed and checked against the catalog once for both.
 */
import type { Engine } from "@berth/engine";
import { isStandardResourceClass } from "@berth/resources";
import { atLeast, type Microversion } from "../microversion.js";
import { badRequest } from "../placement-error.js";
import {
  type MemberOf,
  parseMemberOf,
  parseRequired,
  parseResources,
  type RequiredTraits,
} from "../query.js";

/** `key`: `member_of`, or a request group's `member_of<suffix>`. */
export function memberOfParam(
  query: URLSearchParams,
  version: Microversion,
  key = "member_of",
): MemberOf | undefined {
  const memberOf = query.getAll(key);
  if (memberOf.length === 0) return undefined;
  if (memberOf.length > 1 && !atLeast(version, 24))
    throw badRequest("Multiple member_of parameters are not supported in the specified microversion");
  return parseMemberOf(memberOf, version);
}

export async function requiredParam(
  query: URLSearchParams,
  version: Microversion,
  engine: Engine,
  key = "required",
): Promise<RequiredTraits | undefined> {
  // Before 1.39 a repeated `required` keeps only its last value, as Placement's query schema did.
  const allRequired = query.getAll(key);
  const required = atLeast(version, 39) ? allRequired : allRequired.slice(-1);
  if (required.length === 0) return undefined;
  const parsed = parseRequired(required, version);
  await checkTraitsExist([...parsed.required.flat(), ...parsed.forbidden], engine);
  return parsed;
}

/** Placement's 400 for trait names it does not know. */
export async function checkTraitsExist(traits: readonly string[], engine: Engine): Promise<void> {
  const missing: string[] = [];
  for (const trait of traits)
    if (!(await engine.providers.traitExists(trait)) && !missing.includes(trait)) missing.push(trait);
  if (missing.length > 0) throw badRequest(`No such trait(s): ${missing.join(", ")}.`);
}

export async function resourcesParam(raw: string, engine: Engine): Promise<Record<string, number>> {
  const resources = parseResources(raw);
  await checkResourceClassesExist(Object.keys(resources), engine);
  return resources;
}

/** Placement's 400 for the first resource class it does not know. */
export async function checkResourceClassesExist(names: readonly string[], engine: Engine): Promise<void> {
  if (names.every(isStandardResourceClass)) return;
  const known = new Set((await engine.catalog.listResourceClasses()).map((c) => c.name));
  for (const resourceClass of names)
    if (!isStandardResourceClass(resourceClass) && !known.has(resourceClass))
      throw badRequest(`Invalid resource class in resources parameter: ${resourceClass}`);
}
