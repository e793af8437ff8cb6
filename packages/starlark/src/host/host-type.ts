import { repr, EvalError as StarEvalError, type StarValue, type Value } from "../values/index.js";

/** Describes a read-only host object type visible to Starlark. */
export interface HostTypeSpec<T> {
  /** What `type(x)` returns. */
  typeName: string;
  /** Attribute names, for dir(x) and "did you mean" hints. */
  attrNames(obj: T): string[];
  /** x.name; undefined when there is no such attribute (go.starlark.net's error follows). */
  getAttr(obj: T, name: string): Value | undefined;
  /** Optional x[key]; undefined reports "key ... not in T". Without it, x[k] is an error. */
  getIndex?(obj: T, key: Value): Value | undefined;
  /** Truth value; default true. */
  truth?(obj: T): boolean;
  /** Hash; default: the type is unhashable. */
  hash?(obj: T): number;
  /** repr/str as a byte string; default `<typeName>`. */
  repr?(obj: T): string;
}

/** A host value: the host's data plus its type description. Immutable from Starlark. */
export class HostObject<T> implements StarValue {
  constructor(
    readonly spec: HostTypeSpec<T>,
    readonly data: T,
  ) {}

  get type(): string {
    return this.spec.typeName;
  }

  freeze(): void {
    // Host objects are read-only from Starlark: nothing to freeze.
  }

  truth(): boolean {
    return this.spec.truth ? this.spec.truth(this.data) : true;
  }

  hash(): number {
    if (this.spec.hash) return this.spec.hash(this.data);
    throw new StarEvalError(`unhashable type: ${this.spec.typeName}`);
  }

  repr(): string {
    return this.spec.repr ? this.spec.repr(this.data) : `<${this.spec.typeName}>`;
  }

  attrNames(): string[] {
    return this.spec.attrNames(this.data);
  }

  getAttr(name: string): Value | undefined {
    return this.spec.getAttr(this.data, name);
  }

  getIndex(key: Value): Value {
    const getIndex = this.spec.getIndex;
    if (getIndex === undefined)
      throw new StarEvalError(`unhandled index operation ${this.spec.typeName}[${typeOf(key)}]`);
    const v = getIndex(this.data, key);
    if (v === undefined) throw new StarEvalError(`key ${repr(key)} not in ${this.spec.typeName}`);
    return v;
  }
}

function typeOf(v: Value): string {
  switch (typeof v) {
    case "string":
      return "string";
    case "number":
    case "bigint":
      return "int";
    case "boolean":
      return "bool";
    default:
      return v.type;
  }
}

/** Defines a host object type; returns a constructor wrapping host data as Starlark values. */
export function defineHostType<T>(spec: HostTypeSpec<T>): (data: T) => Value {
  return (data: T) => new HostObject(spec, data);
}
