/**
 * Late-bound equality and hashing. The container classes need them, the operations
 * module defines them, and registering at load time avoids an ES module import cycle.
 */
import type { Value } from "./value.js";

export const valueHooks = {
  equals: (_x: Value, _y: Value): boolean => {
    throw new Error("valueHooks.equals used before ops.ts was loaded");
  },
  hash: (_x: Value): number => {
    throw new Error("valueHooks.hash used before ops.ts was loaded");
  },
};
