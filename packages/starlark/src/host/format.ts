import { decodeByteStringToUtf8, repr as reprBytes, str as strBytes, type Value } from "../values/index.js";

/** repr(v) as a normal JS string (Starlark strings are byte strings internally). */
export function repr(v: Value): string {
  return decodeByteStringToUtf8(reprBytes(v));
}

/** str(v) as a normal JS string. */
export function str(v: Value): string {
  return decodeByteStringToUtf8(strBytes(v));
}
