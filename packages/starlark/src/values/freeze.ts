/**
 * Deep freezing without recursion: nesting depth cannot overflow the JS stack, and a
 * DAG of shared tuples is visited once per node instead of once per path.
 */
import type { StarValue, Value } from "./value.js";

/** Containers implement this to freeze themselves and hand over their children. */
export interface ShallowFreezable {
  freezeShallow(push: (child: Value) => void): void;
}

function isShallowFreezable(v: StarValue): v is StarValue & ShallowFreezable {
  return typeof (v as Partial<ShallowFreezable>).freezeShallow === "function";
}

export function deepFreeze(root: StarValue): void {
  const stack: StarValue[] = [root];
  const seen = new Set<StarValue>();
  const push = (child: Value) => {
    if (typeof child === "object" && !seen.has(child)) stack.push(child);
  };
  while (stack.length > 0) {
    const v = stack.pop() as StarValue;
    if (seen.has(v)) continue;
    seen.add(v);
    if (isShallowFreezable(v)) v.freezeShallow(push);
    else v.freeze();
  }
}
