/**
 * The request fields a static filter may read, each with how it enters the
 * candidate cache key. The stack keys its cached candidate sets on exactly
 * the fields its static filters declare (see stack.ts), so a field is
 * readable by a static filter only once it is listed here: declaring any
 * other field is a type error, and a read of an undeclared field throws
 * (guard.ts).
 */
import type { PlacementRequest } from "../expand/request.js";

/**
 * Each keyed field's part of the key, read from the request by the entry
 * itself (a property read per field, not a lookup by name: the key is
 * built on every placement). The type lets each entry read its own field
 * only.
 */
export const KEYED_FIELDS = {
  projectName: (request: Pick<PlacementRequest, "projectName">) => request.projectName,
  target: ({ target }: Pick<PlacementRequest, "target">) =>
    target === null ? null : `${target.kind}:${target.name}`,
  allowedGroups: (request: Pick<PlacementRequest, "allowedGroups">) => request.allowedGroups,
  excluded: ({ excluded }: Pick<PlacementRequest, "excluded">) =>
    excluded.size === 0 ? [] : [...excluded].sort(),
  type: (request: Pick<PlacementRequest, "type">) => request.type,
  architectures: (request: Pick<PlacementRequest, "architectures">) => request.architectures,
  requiredTraits: (request: Pick<PlacementRequest, "requiredTraits">) => request.requiredTraits,
  forbiddenTraits: (request: Pick<PlacementRequest, "forbiddenTraits">) => request.forbiddenTraits,
} satisfies { [K in keyof PlacementRequest]?: (request: Pick<PlacementRequest, K>) => unknown };

/** A request field a static filter may declare. */
export type KeyedField = keyof typeof KEYED_FIELDS;

export function isKeyedField(field: string): field is KeyedField {
  return Object.hasOwn(KEYED_FIELDS, field);
}
