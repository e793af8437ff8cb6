/**
 * Views that hold only the fields a filter declared. A declared field is an
 * own property (read at full speed); any other field name falls through to
 * the prototype, a proxy that throws naming the filter and the field. So a
 * filter cannot act on a field its declaration leaves out: the candidate
 * cache, keyed on the declarations, can never hand back a set computed
 * from something it did not key on.
 */
import { EngineError } from "../../errors.js";

/** The prototype of a view: throws on any string-keyed read that reaches it. */
export function readGuard(owner: string, side: "request" | "member", declared: readonly string[]): object {
  const fail = (key: string): never => {
    throw new EngineError(
      "internal",
      `${owner} reads ${side} field "${key}" it does not declare (declared: ${declared.length === 0 ? "none" : declared.join(", ")})`,
    );
  };
  return new Proxy(Object.create(null) as object, {
    get: (_target, key) => (typeof key === "symbol" ? undefined : fail(key)),
    has: (_target, key) => (typeof key === "symbol" ? false : fail(key)),
  });
}

/** A frozen view of `source` holding `fields`, with `guard` behind them. */
export function guardedView<T extends object, K extends keyof T & string>(
  source: T,
  fields: readonly K[],
  guard: object,
): Pick<T, K> {
  const descriptors: PropertyDescriptorMap = {};
  for (const field of fields) descriptors[field] = { value: source[field], enumerable: true };
  return Object.freeze(Object.create(guard, descriptors)) as Pick<T, K>;
}
