import type { ScriptletCheckResult } from "@berth/api-types";
import { defineRoute, type RouteSpec } from "./route-spec.js";

/**
 * Checking a proposed placement scriptlet without setting it: the console's
 * editor asks as the operator types. Admins only, like setting one (the
 * check runs the scriptlet's top level, within the validation limits).
 */
export const scriptletRoutes: RouteSpec[] = [
  defineRoute({
    method: "POST",
    path: "/1.0/scriptlet/check",
    operationId: "checkScriptlet",
    summary:
      "Check a placement scriptlet as setting instances.placement.scriptlet would (compile, top level, signature), without setting it: valid, or the error at its line and column",
    tag: "server",
    access: "admin",
    body: "ScriptletCheckRequest",
    response: "ScriptletCheckResult",
    handle: async ({ services, body }) => {
      const problem = await services.engine.config.checkScriptlet(body.source);
      const metadata: ScriptletCheckResult =
        problem === undefined ? { valid: true, error: null } : { valid: false, error: problem };
      return { metadata };
    },
  }),
];
