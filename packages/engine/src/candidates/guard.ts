/**
 * Views that hold only the fields a filter declared. A declared field is an
 * own property of the view (read at full speed); a read of any other name
 * falls through the prototype chain to a proxy that throws naming the
 * filter and the field. So a filter cannot act on a field its declaration
 * leaves out: the candidate cache, keyed on the declarations, can never
 * hand back a set computed from something it did not key on.
 *
 * The guard (the views' prototype) also holds each declared field as a
 * writable data property, so filling a view stops the property lookup
 * there and never reaches the proxy: building a view costs what building a
 * small object literal costs.
 */
import { EngineError } from "../base/errors.js";

/** The prototype of every view for one reader: `declared` writable, anything else throws on read. */
export function readGuard(owner: string, side: "request" | "member", declared: readonly string[]): object {
  const fail = (key: string): never => {
    throw new EngineError(
      "internal",
      `${owner} reads ${side} field "${key}" it does not declare (declared: ${declared.length === 0 ? "none" : declared.join(", ")})`,
    );
  };
  const trap = new Proxy(Object.create(null) as object, {
    get: (_target, key) => (typeof key === "symbol" ? undefined : fail(key)),
    has: (_target, key) => (typeof key === "symbol" ? false : fail(key)),
  });
  const guard = Object.create(trap) as Record<string, unknown>;
  for (const field of declared) {
    Object.defineProperty(guard, field, { value: undefined, writable: true, enumerable: false });
  }
  return guard;
}

/**
 * A view of `source` holding `fields`, with `guard` (made by readGuard for
 * exactly these fields) behind them. A reader that declares nothing gets
 * the guard itself.
 */
export function guardedView<T extends object, K extends keyof T & string>(
  source: T,
  fields: readonly K[],
  guard: object,
): Pick<T, K> {
  if (fields.length === 0) return guard as Pick<T, K>;
  const view = Object.create(guard) as Pick<T, K>;
  for (let index = 0; index < fields.length; index++) {
    const field = fields[index]!;
    view[field] = source[field];
  }
  return view;
}
