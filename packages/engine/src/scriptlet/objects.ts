/**
 * Read-only Starlark views over plain JS data, shaped by a schema.
 *
 * Conversion is lazy: wrapping a member or a member state allocates one small
 * object, and a field is converted only when the scriptlet reads it. That
 * matters because a scriptlet may query every one of thousands of
 * candidates. Container fields (lists, dicts, nested objects) are converted
 * once per object and cached, so `request.config` is the same dict on every
 * read (LXD builds the dict once too); mutating it never reaches the host.
 */
import {
  encodeUtf8ToByteString,
  None,
  reprBytes,
  StarDict,
  EvalError as StarEvalError,
  StarFloat,
  StarList,
  type StarValue,
  type Thread,
  type Value,
} from "@berth/starlark";
import type { FieldKind, ObjectSchema } from "./schemas.js";

type Plain = unknown;
type PlainRecord = Record<string, unknown>;

/** JS number -> Starlark int (number or bigint) or float. */
function numberToValue(n: number): Value {
  if (Number.isSafeInteger(n)) return n;
  if (Number.isInteger(n)) return BigInt(n);
  return new StarFloat(n);
}

/**
 * Plain JSON-like data -> Starlark: strings to byte strings, integral numbers
 * to int, others to float, arrays to lists, objects to dicts with sorted keys
 * (LXD marshals Go maps in key order), null/undefined to None.
 */
export function plainToValue(js: Plain): Value {
  switch (typeof js) {
    case "string":
      return encodeUtf8ToByteString(js);
    case "number":
      return numberToValue(js);
    case "boolean":
      return js;
    case "bigint":
      return js;
    case "object":
      if (js === null) return None;
      if (Array.isArray(js)) return new StarList(js.map(plainToValue));
      return mapToDict(js as PlainRecord, undefined, undefined);
    default:
      return None;
  }
}

function mapToDict(js: PlainRecord, of: FieldKind | undefined, thread: Thread | undefined): StarDict {
  const dict = new StarDict();
  const keys = Object.keys(js).sort();
  for (const key of keys) {
    const v = js[key];
    if (v === undefined) continue;
    dict.setKey(encodeUtf8ToByteString(key), of ? toValue(v, of, thread) : plainToValue(v));
  }
  return dict;
}

/**
 * Converts one field value by its declared kind; absent values become the
 * kind's zero value. Objects remember the run's thread to bound their repr.
 */
export function toValue(js: Plain, kind: FieldKind, thread: Thread | undefined): Value {
  switch (kind.k) {
    case "scalar":
      if (js === undefined || js === null) return kind.zero === undefined ? None : plainToValue(kind.zero);
      return plainToValue(js);
    case "float":
      return typeof js === "number"
        ? new StarFloat(js)
        : js === undefined || js === null
          ? ZERO_FLOAT
          : plainToValue(js);
    case "list": {
      if (!Array.isArray(js)) return new StarList([]);
      const of = kind.of;
      return new StarList(of ? js.map((e) => toValue(e, of, thread)) : js.map(plainToValue));
    }
    case "map":
      return isRecord(js) ? mapToDict(js, kind.of, thread) : new StarDict();
    case "object":
      // A Go struct field is never nil: an absent one reads as an object of absent fields.
      return new HostObject(kind.schema, isRecord(js) ? js : EMPTY_RECORD, thread);
    case "open":
      // Open lists may hold plain values as well as structs; a struct (not a pointer) is never nil.
      if (isRecord(js)) return new OpenObject(kind.typeName, js, thread, kind.known);
      if (js === undefined && kind.known !== undefined) {
        return new OpenObject(kind.typeName, EMPTY_RECORD, thread, kind.known);
      }
      return plainToValue(js);
  }
}

/** Go's zero float64, shared: floats are immutable. */
const ZERO_FLOAT = new StarFloat(0);

/** Shared stand-in for an absent struct: objects only read their data. */
const EMPTY_RECORD: PlainRecord = Object.freeze({});

function isRecord(js: Plain): js is PlainRecord {
  return typeof js === "object" && js !== null && !Array.isArray(js);
}

/** LXD's text for reading a field an object does not have (a non-string key shows as its bounded repr). */
export function invalidFieldError(name: Value, thread?: Thread): StarEvalError {
  return new StarEvalError(
    typeof name === "string" ? `Invalid field "${name}"` : `Invalid field ${reprBytes(name, thread)}`,
  );
}

/**
 * repr of a struct: the repr of the dict LXD builds from it, in field order,
 * as a byte string (the StarValue hook's form). Containers inside are the
 * scriptlet's own mutable copies, so the size limit is checked as it goes.
 */
function structRepr(
  fields: Iterable<string>,
  get: (name: string) => Value,
  thread: Thread | undefined,
): string {
  const parts: string[] = [];
  let size = 2;
  for (const name of fields) {
    const part = `${reprBytes(name, thread)}: ${reprBytes(get(name), thread)}`;
    size += part.length + 2;
    thread?.checkStringLength(size);
    parts.push(part);
  }
  return `{${parts.join(", ")}}`;
}

/** Methods shared by both object kinds: always true, unhashable, fields by string index. */
abstract class ReadOnlyObject implements StarValue {
  abstract readonly type: string;
  /** The run's thread: its limits bound repr. */
  protected abstract readonly thread: Thread | undefined;
  abstract attrNames(): string[];
  abstract getAttr(name: string): Value;

  freeze(): void {
    // Host data never changes through the scriptlet; cached containers are the
    // scriptlet's own copies and stay as mutable as LXD leaves them.
  }
  truth(): boolean {
    return true;
  }
  hash(): number {
    throw new StarEvalError(`Unhashable type ${this.type}`);
  }
  getIndex(key: Value): Value {
    if (typeof key !== "string") throw invalidFieldError(key, this.thread);
    return this.getAttr(key);
  }
  repr(thread?: Thread): string {
    return structRepr(this.attrNames(), (name) => this.getAttr(name), thread ?? this.thread);
  }
}

/**
 * A struct with a fixed schema (`InstancePlacement`, `ClusterMember`, ...).
 * Equality is identity (the interpreter's default for host types), as in LXD.
 */
export class HostObject extends ReadOnlyObject {
  /** Converted container fields by slot, allocated on the first container read. */
  private cache: (Value | undefined)[] | undefined = undefined;
  /** A field, not a getter: the interpreter reads `type` on every attribute access. */
  readonly type: string;

  constructor(
    private readonly schema: ObjectSchema,
    private readonly data: PlainRecord,
    protected readonly thread: Thread | undefined,
  ) {
    super();
    this.type = schema.typeName;
  }

  attrNames(): string[] {
    return [...this.schema.fields.keys()];
  }

  getAttr(name: string): Value {
    const slot = slotOf(this.schema, name);
    if (slot === undefined) throw invalidFieldError(name);
    const kind = this.schema.kinds[slot] as FieldKind;
    if (kind.k === "scalar") {
      // The hot path: a scriptlet reads scalars (names, byte counts) of many objects.
      const v = this.data[name];
      if (typeof v === "string") return encodeUtf8ToByteString(v);
      return typeof v === "number" && Number.isSafeInteger(v) ? v : toValue(v, kind, undefined);
    }
    if (kind.k === "float") return toValue(this.data[name], kind, undefined);
    let cache = this.cache;
    if (cache === undefined) {
      cache = new Array(this.schema.kinds.length);
      this.cache = cache;
    }
    let v = cache[slot];
    if (v === undefined) {
      const js = this.data[name];
      // Nested structs (state.sysinfo) are the common container read: skip the general conversion.
      v =
        kind.k === "object"
          ? new HostObject(kind.schema, isRecord(js) ? js : EMPTY_RECORD, this.thread)
          : toValue(js, kind, this.thread);
      cache[slot] = v;
    }
    return v;
  }
}

/** The slot of field `name`, remembering the last answer per schema. */
function slotOf(schema: ObjectSchema, name: string): number | undefined {
  const last = schema.lastRead;
  if (last.name === name) return last.slot;
  const slot = schema.slots[name];
  if (slot !== undefined) {
    last.name = name;
    last.slot = slot;
  }
  return slot;
}

/**
 * A struct whose fields are the data's own keys (deep `api.Resources`
 * parts). Nested structs are named after their path: the elements of
 * `cpu.sockets` are `ResourcesCPUSocket` (as in LXD), their `cores`
 * `ResourcesCPUSocketCore` (LXD: `ResourcesCPUCore`).
 */
export class OpenObject extends ReadOnlyObject {
  private readonly cache = new Map<string, Value>();

  constructor(
    readonly type: string,
    private readonly data: PlainRecord,
    protected readonly thread: Thread | undefined,
    /** The Go struct's own fields: always present, typed, first. */
    private readonly known?: ObjectSchema,
  ) {
    super();
  }

  attrNames(): string[] {
    const known = this.known;
    const own = Object.keys(this.data).filter(
      (k) => this.data[k] !== undefined && known?.slots[k] === undefined,
    );
    return known === undefined ? own : [...known.fields.keys(), ...own];
  }

  getAttr(name: string): Value {
    const cached = this.cache.get(name);
    if (cached !== undefined) return cached;
    const kind = this.known?.fields.get(name);
    if (kind !== undefined) {
      const typed = toValue(this.data[name], kind, this.thread);
      this.cache.set(name, typed);
      return typed;
    }
    if (!Object.hasOwn(this.data, name) || this.data[name] === undefined) throw invalidFieldError(name);
    const v = this.data[name];
    let converted: Value;
    if (isRecord(v)) converted = new OpenObject(this.type + pascal(name), v, this.thread);
    else if (Array.isArray(v)) {
      const elementType = this.type + singular(pascal(name));
      converted = new StarList(v.map((e) => toValue(e, { k: "open", typeName: elementType }, this.thread)));
    } else return plainToValue(v);
    this.cache.set(name, converted);
    return converted;
  }
}

function pascal(name: string): string {
  const words = name.split(/[_\-\s]+/).filter((w) => w.length > 0);
  return words.map((w) => (w.length <= 3 ? w.toUpperCase() : w[0]?.toUpperCase() + w.slice(1))).join("");
}

function singular(name: string): string {
  return name.endsWith("s") && !name.endsWith("ss") ? name.slice(0, -1) : name;
}
