import {
  decodeByteStringToUtf8,
  repr as reprBytes,
  str as strBytes,
  type Thread,
  type Value,
} from "../values/index.js";

/**
 * repr(v) as a normal JS string (Starlark strings are byte strings internally). With a thread,
 * the result is bounded by its maxStringLength limit.
 */
export function repr(v: Value, thread?: Thread): string {
  return decodeByteStringToUtf8(reprBytes(v, thread));
}

/** str(v) as a normal JS string, bounded by the thread's string limit when one is given. */
export function str(v: Value, thread?: Thread): string {
  return decodeByteStringToUtf8(strBytes(v, thread));
}
