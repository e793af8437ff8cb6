/**
 * Read-modify-write of one catalog record that never writes over a change
 * it did not see. The store's conditional update (`CatalogTable.update(
 * record, expected)`) refuses when the row moved after it was read:
 * - with a precondition (`ifMatch`, the ETag the caller read), the record
 *   must still be that version, now and at the write: otherwise `stale`
 *   (412 over HTTP, Incus's "ETag doesn't match" text);
 * - without one, a lost race re-reads and re-applies the change, so two
 *   concurrent PATCHes of different keys both land.
 */
import { conflict, stale } from "../base/errors.js";
import { isRecordChanged, recordEtag } from "../store/record-version.js";

/** What a write expects of the record it replaces (an ETag), else it is refused as `stale`. */
export interface Precondition {
  /** The record's ETag as the caller read it (`recordEtag`); surrounding quotes are ignored. */
  ifMatch?: string;
}

/**
 * Attempts before a record that changes under every write is reported as a
 * conflict. Every lost race means another write landed, so N concurrent
 * writers of one record need at most N attempts.
 */
const MAX_ATTEMPTS = 32;

function expectedEtag(precondition: Precondition): string | undefined {
  const given = precondition.ifMatch?.trim();
  if (given === undefined || given === "") return undefined;
  return given.replace(/^"|"$/g, "");
}

/** `stale` unless `current` is the version the caller named (nothing named: always fine). */
export function checkPrecondition(current: object, precondition: Precondition = {}): void {
  const expected = expectedEtag(precondition);
  if (expected === undefined) return;
  const actual = recordEtag(current);
  if (actual !== expected) throw stale(`ETag doesn't match: ${actual} vs ${expected}`);
}

/** One record to update: where it is read from and written to. */
export interface UpdateTarget<T extends object> {
  /** Names the record in the conflict raised when it never holds still. */
  label: string;
  /** The stored record (not_found when absent). */
  read(): Promise<T>;
  /** The store's conditional write (plus whatever mirrors the record). */
  write(next: T, expected: T): Promise<T>;
}

/** Writes `change(current)` over the record, never over a version it did not read (see above). */
export async function guardedUpdate<T extends object>(
  target: UpdateTarget<T>,
  change: (current: T) => T,
  precondition: Precondition = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const current = await target.read();
    checkPrecondition(current, precondition);
    try {
      return await target.write(change(current), current);
    } catch (error) {
      if (!isRecordChanged(error)) throw error;
      // The caller's version was current at the check but not at the write: it is stale now.
      if (expectedEtag(precondition) !== undefined) checkPrecondition(await target.read(), precondition);
      if (attempt >= MAX_ATTEMPTS) {
        throw conflict(`${target.label} kept changing while being updated; try again`);
      }
    }
  }
}
