/**
 * A member write names an existing member, and one made against a
 * generation the caller read lands only while the member is still at it
 * (Placement's resource provider generation).
 */
import { conflict, type EngineError, notFound } from "../../base/errors.js";

/** LXD's text for a member that does not exist (404). */
export function memberNotFound(name: string): EngineError {
  return notFound(`Cluster member "${name}" not found`);
}

/** The member's row as the Store read it; not_found when it has none. */
export function requireMemberRow<T>(name: string, row: T | undefined): T {
  if (row === undefined) throw memberNotFound(name);
  return row;
}

/** A member write quoting a generation the member has moved past (409, reason `generation`). */
export function memberGenerationConflict(name: string, expected: number, actual: number): EngineError {
  return conflict(`Cluster member "${name}" generation conflict: expected ${expected}, current ${actual}`, {
    reason: "generation",
    member: name,
    expected,
    actual,
  });
}

/** conflict unless the member is at `expected` (nothing expected: always fine). */
export function checkMemberGeneration(name: string, expected: number | undefined, actual: number): void {
  if (expected !== undefined && expected !== actual) throw memberGenerationConflict(name, expected, actual);
}
