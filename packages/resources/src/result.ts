/**
 * Every fallible function in this package returns a `Result` instead of
 * throwing: callers on the placement hot path branch on `ok` without paying
 * for exceptions, and errors stay typed values with a `kind`.
 */
export type Result<T, E> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: E };

export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

export function err<E>(error: E): { readonly ok: false; readonly error: E } {
  return { ok: false, error };
}
