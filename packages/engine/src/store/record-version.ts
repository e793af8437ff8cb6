/**
 * Versions of catalog records without a version column: a record's version
 * is its content. Two reads of a record are the same version exactly when
 * their canonical JSON (keys sorted at every level) is equal, and the ETag
 * a client gets is the SHA-256 of that text, as LXD/Incus derive ETags from
 * the object's content. A Store's conditional `update(record, expected)`
 * compares with `sameVersion`; a concurrent writer that changed the row in
 * between makes it refuse with `recordChanged` instead of writing over it.
 */
import { createHash } from "node:crypto";
import { conflict, type EngineError, isEngineError } from "../base/errors.js";

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== "object") return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort())
    sorted[key] = canonical((value as Record<string, unknown>)[key]);
  return sorted;
}

/** The record as text that does not depend on the order its keys were written in. */
export function canonicalJson(record: object): string {
  return JSON.stringify(canonical(record));
}

/** Whether two reads of a record are the same version. */
export function sameVersion(a: object, b: object): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** The record's ETag: hex SHA-256 of its canonical JSON (quoted on the wire by the server). */
export function recordEtag(record: object): string {
  return createHash("sha256").update(canonicalJson(record)).digest("hex");
}

const CHANGED = "changed";

/** What a Store throws when a conditional update finds the row changed since `expected` was read. */
export function recordChanged(label: string, key: string): EngineError {
  return conflict(`${label} "${key}" was changed by another request; read it again`, { reason: CHANGED });
}

/**
 * Whether `error` is the refusal of a conditional update whose row changed since it was read
 * (`recordChanged`).
 */
export function isRecordChanged(error: unknown): boolean {
  return isEngineError(error, "conflict") && error.details?.reason === CHANGED;
}
