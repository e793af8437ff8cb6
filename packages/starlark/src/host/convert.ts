import {
  Builtin,
  decodeByteStringToUtf8,
  encodeUtf8ToByteString,
  isStarValue,
  None,
  StarBytes,
  StarDict,
  EvalError as StarEvalError,
  StarFloat,
  StarList,
  StarSet,
  StarTuple,
  typeName,
  type Value,
} from "../values/index.js";

/**
 * Converts plain JS data to Starlark: null/undefined -> None, integers -> int, other numbers ->
 * float, bigint -> int, strings -> string (UTF-8 bytes), arrays -> list, Uint8Array -> bytes,
 * Map and plain objects -> dict, Set -> set. Starlark values pass through unchanged.
 */
export function toStarlark(js: unknown): Value {
  return convertIn(js, new Set());
}

/** `path` holds the JS containers being converted, so cyclic data is an error, not a stack overflow. */
function convertIn(js: unknown, path: Set<object>): Value {
  switch (typeof js) {
    case "undefined":
      return None;
    case "boolean":
      return js;
    case "number":
      return Number.isSafeInteger(js) ? js + 0 : new StarFloat(js); // + 0: no int -0
    case "bigint":
      return js >= BigInt(Number.MIN_SAFE_INTEGER) && js <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(js) : js;
    case "string":
      return encodeUtf8ToByteString(js);
    case "object": {
      if (js === null) return None;
      if (isStarlarkObject(js)) return js;
      if (js instanceof Uint8Array) {
        let s = "";
        for (const b of js) s += String.fromCharCode(b);
        return new StarBytes(s);
      }
      if (path.has(js)) throw new StarEvalError("cannot convert cyclic JS data to a Starlark value");
      path.add(js);
      try {
        const conv = (x: unknown) => convertIn(x, path);
        if (Array.isArray(js)) return new StarList(js.map(conv));
        if (js instanceof Set) return new StarSet([...js].map(conv));
        const d = new StarDict();
        if (js instanceof Map) {
          for (const [k, v] of js) d.setKey(conv(k), conv(v));
        } else {
          for (const [k, v] of Object.entries(js)) d.setKey(encodeUtf8ToByteString(k), conv(v));
        }
        return d;
      } finally {
        path.delete(js);
      }
    }
    default:
      throw new StarEvalError(`cannot convert JS ${typeof js} to a Starlark value`);
  }
}

function isStarlarkObject(x: object): x is Exclude<Value, string | number | bigint | boolean> {
  return (
    x instanceof Builtin ||
    x instanceof StarFloat ||
    (typeof (x as { type?: unknown }).type === "string" &&
      typeof (x as { freeze?: unknown }).freeze === "function" &&
      typeof (x as { truth?: unknown }).truth === "function")
  );
}

/**
 * Converts a Starlark value to plain JS data: None -> null, int -> number or bigint,
 * float -> number, string -> string, bytes -> Uint8Array, list/tuple -> array, set -> array,
 * dict -> object when every key is a string (else Map). Other values (functions, host
 * objects) are returned as they are.
 */
export function fromStarlark(v: Value): unknown {
  return convertOut(v, new Set());
}

/** `path` holds the containers being converted, so a value that contains itself is an error, not a stack overflow. */
function convertOut(v: Value, path: Set<object>): unknown {
  switch (typeof v) {
    case "boolean":
    case "number":
    case "bigint":
      return v;
    case "string":
      return decodeByteStringToUtf8(v);
  }
  if (v === None) return null;
  if (v instanceof StarFloat) return v.value;
  if (v instanceof StarBytes) return Uint8Array.from(v.data, (c) => c.charCodeAt(0));
  const isContainer =
    v instanceof StarList || v instanceof StarTuple || v instanceof StarSet || v instanceof StarDict;
  if (!isContainer) {
    if (isStarValue(v)) return v;
    throw new StarEvalError(`cannot convert Starlark ${typeName(v)} to JS`);
  }
  if (path.has(v)) throw new StarEvalError(`cannot convert a ${typeName(v)} that contains itself to JS`);
  path.add(v);
  try {
    if (v instanceof StarList || v instanceof StarTuple) return v.elems.map((e) => convertOut(e, path));
    if (v instanceof StarSet) return v.ht.keys().map((e) => convertOut(e, path));
    const entries = (v as StarDict).ht.entries();
    if (entries.every(([k]) => typeof k === "string")) {
      const o: Record<string, unknown> = {};
      for (const [k, x] of entries) o[decodeByteStringToUtf8(k as string)] = convertOut(x, path);
      return o;
    }
    return new Map(entries.map(([k, x]) => [convertOut(k, path), convertOut(x, path)]));
  } finally {
    path.delete(v);
  }
}
