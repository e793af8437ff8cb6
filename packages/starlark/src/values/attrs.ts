/**
 * Attribute access: built-in methods of the core types (bound on access) and host hooks.
 */
import { nearest } from "../spell/spell.js";
import { StarEvalError } from "./errors.js";
import type { Thread } from "./thread.js";
import { Builtin, type BuiltinFn, StarFloat, type StarValue, typeName, type Value } from "./value.js";

/** A built-in method: receives its receiver explicitly, so calls need no bound object. */
export type MethodFn = (thread: Thread, receiver: Value, args: Value[], kwargs: [string, Value][]) => Value;

interface MethodEntry {
  fn: MethodFn;
  /** Unbound Builtin whose fn forwards its receiver; bound copies are made on attribute access. */
  unbound: Builtin;
}

/** Method tables by type name; filled by the methods/*.ts modules. */
const methodTables = new Map<string, Map<string, MethodEntry>>();

export function defineMethods(type: string, methods: Record<string, MethodFn>): void {
  let table = methodTables.get(type);
  if (!table) {
    table = new Map();
    methodTables.set(type, table);
  }
  for (const name of Object.keys(methods).sort()) {
    const fn = methods[name] as MethodFn;
    const forward: BuiltinFn = (thread, args, kwargs, self) =>
      fn(thread, self.receiver as Value, args, kwargs);
    table.set(name, { fn, unbound: new Builtin(name, forward) });
  }
}

/**
 * Calls the built-in method `name` of x directly (no bound-method allocation).
 * Returns undefined when x's type has no such built-in method; the caller then falls
 * back to getAttr + call (host types, fields holding functions).
 */
export function callMethod(
  thread: Thread,
  x: Value,
  name: string,
  args: Value[],
  kwargs: [string, Value][],
): Value | undefined {
  const table = methodTables.get(typeName(x));
  const m = table?.get(name);
  return m === undefined ? undefined : m.fn(thread, x, args, kwargs);
}

/**
 * The built-in method `name` of values whose type name is `type`, or undefined. Method
 * tables are filled once at load, so call sites may cache the answer per receiver type.
 */
export function methodOf(type: string, name: string): MethodFn | undefined {
  return methodTables.get(type)?.get(name)?.fn;
}

/** Sorted names of x's fields and methods (what dir() returns). */
export function attrNames(x: Value): string[] {
  const table = methodTables.get(typeName(x));
  const names = table ? [...table.keys()] : [];
  if (typeof x === "object" && !(x instanceof StarFloat) && typeof x.attrNames === "function") {
    names.push(...x.attrNames());
  }
  return [...new Set(names)].sort();
}

/** x.name, or undefined when there is no such attribute. */
export function tryGetAttr(x: Value, name: string): Value | undefined {
  const table = methodTables.get(typeName(x));
  const m = table?.get(name);
  if (m !== undefined) return m.unbound.bindReceiver(x);
  if (typeof x === "object" && typeof (x as StarValue).getAttr === "function") {
    return (x as StarValue).getAttr?.(name);
  }
  return undefined;
}

/** x.name with go.starlark.net's error (and its "did you mean" hint). */
export function getAttr(_thread: Thread | undefined, x: Value, name: string): Value {
  const v = tryGetAttr(x, name);
  if (v !== undefined) return v;
  throw noSuchAttr(x, name, "field or method");
}

function noSuchAttr(x: Value, name: string, what: string): StarEvalError {
  const hint = nearest(name, attrNames(x));
  const t = typeName(x);
  if (hint) return new StarEvalError(`${t} has no .${name} ${what} (did you mean .${hint}?)`);
  return new StarEvalError(`${t} has no .${name} ${what}`);
}

/**
 * Thrown by host getAttr/setField hooks to say "no such field"; setField and getAttr
 * turn it into go.starlark.net's message with a spelling hint.
 */
export class NoSuchAttrError extends StarEvalError {}

/** x.name = v. */
export function setField(x: Value, name: string, v: Value): void {
  if (typeof x === "object" && typeof (x as StarValue).setField === "function") {
    try {
      (x as StarValue).setField?.(name, v);
    } catch (e) {
      if (e instanceof NoSuchAttrError) {
        const hint = nearest(name, attrNames(x));
        throw new StarEvalError(hint ? `${e.message} (did you mean .${hint}?)` : e.message);
      }
      throw e;
    }
    return;
  }
  throw new StarEvalError(`can't assign to .${name} field of ${typeName(x)}`);
}
