/**
 * The request fields a static filter may read, each with how it enters the
 * candidate cache key. The stack keys its cached candidate sets on exactly
 * the fields its static filters declare (see stack.ts), so a field is
 * readable by a static filter only once it is listed here: declaring any
 * other field is a type error, and a read of an undeclared field throws
 * (guard.ts).
 */
import type { PlacementRequest, Target } from "../request.js";

export const KEYED_FIELDS = {
  projectName: (value: string) => value,
  target: (value: Target) => (value === null ? null : `${value.kind}:${value.name}`),
  allowedGroups: (value: readonly string[]) => value,
  excluded: (value: ReadonlySet<string>) => (value.size === 0 ? [] : [...value].sort()),
  type: (value: string) => value,
  architectures: (value: readonly string[] | null) => value,
  requiredTraits: (value: readonly string[]) => value,
  forbiddenTraits: (value: readonly string[]) => value,
} satisfies { [K in keyof PlacementRequest]?: (value: PlacementRequest[K]) => unknown };

/** A request field a static filter may declare. */
export type KeyedField = keyof typeof KEYED_FIELDS;

export function isKeyedField(field: string): field is KeyedField {
  return Object.hasOwn(KEYED_FIELDS, field);
}
