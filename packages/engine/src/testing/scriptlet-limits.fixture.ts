import type { ScriptletLimits } from "../scriptlet/port.js";

/** Limits for scriptlet tests that exercise builtins and objects, not the limits themselves. */
export const TEST_SCRIPTLET_LIMITS: ScriptletLimits = Object.freeze({
  maxSteps: 100_000,
  timeoutMs: 2_000,
  maxStringLength: 1 << 16,
  maxCollectionSize: 10_000,
  maxAllocBytes: 64 << 20,
});
