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

export function memberOfParam(query: URLSearchParams, version: Microversion): MemberOf | undefined {
  const memberOf = query.getAll("member_of");
  if (memberOf.length === 0) return undefined;
  if (memberOf.length > 1 && !atLeast(version, 24))
    throw badRequest("Multiple member_of parameters are not supported in the specified microversion");
  return parseMemberOf(memberOf, version);
}

export async function requiredParam(
  query: URLSearchParams,
  version: Microversion,
  engine: Engine,
): Promise<RequiredTraits | undefined> {
  // Before 1.39 a repeated `required` keeps only its last value, as Placement's query schema did.
  const allRequired = query.getAll("required");
  const required = atLeast(version, 39) ? allRequired : allRequired.slice(-1);
  if (required.length === 0) return undefined;
  const parsed = parseRequired(required, version);
  const missing: string[] = [];
  for (const trait of [...parsed.required.flat(), ...parsed.forbidden])
    if (!(await engine.providers.traitExists(trait)) && !missing.includes(trait)) missing.push(trait);
  if (missing.length > 0) throw badRequest(`No such trait(s): ${missing.join(", ")}.`);
  return parsed;
}

export async function resourcesParam(raw: string, engine: Engine): Promise<Record<string, number>> {
  const resources = parseResources(raw);
  const known = new Set((await engine.catalog.listResourceClasses()).map((c) => c.name));
  for (const resourceClass of Object.keys(resources))
    if (!isStandardResourceClass(resourceClass) && !known.has(resourceClass))
      throw badRequest(`Invalid resource class in resources parameter: ${resourceClass}`);
  return resources;
}
