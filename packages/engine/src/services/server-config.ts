/**
 * `engine.config`: the server config, LXD's `GET/PUT/PATCH /1.0`. Values
 * are checked by api-types' rules and a scriptlet by the scriptlet host
 * before anything is written; a change of an allocation ratio re-derives
 * every member's standard inventories.
 */

import {
  checkServerConfigCombination,
  checkServerConfigValue,
  serverConfigErrorMessage,
} from "@berth/api-types";
import { invalid } from "../base/errors.js";
import { normalizedConfigPatch } from "../rules/writes/config-patch.js";
import type { EngineRuntime } from "../runtime/runtime.js";
import { cloneJson } from "../store/clone.js";
import type { ConfigRecord } from "../store/records.js";
import type { Members } from "./members.js";
import {
  checkScriptletValue,
  SCRIPTLET_KEY,
  type ScriptletProblem,
  scriptletProblem,
} from "./scriptlet-value.js";

const RATIO_KEYS = [
  "scheduler.cpu_allocation_ratio",
  "scheduler.ram_allocation_ratio",
  "scheduler.disk_allocation_ratio",
];

/**
 * The server config (`engine.config`, LXD's `/1.0`): values checked by api-types' rules, a
 * scriptlet compiled and checked before it is stored, a version every engine on the store follows.
 */
export class ServerConfig {
  constructor(
    private readonly runtime: EngineRuntime,
    private readonly members: Members,
  ) {}

  /** The current server config (keys and version), after catching up with other engines' writes. */
  async get(): Promise<ConfigRecord> {
    await this.runtime.sync();
    return cloneJson(this.runtime.config);
  }

  /**
   * PATCH semantics (`null` or "" removes a key). Every value is checked
   * (api-types' rules); a scriptlet is compiled and signature-checked by the
   * scriptlet host first, so a bad one never replaces the one in force.
   * `""` unsets a key as null does (LXD's rule, applied here once:
   * rules/writes/config-patch.ts), so callers pass values as given.
   */
  async set(
    given: Record<string, string | null | undefined>,
    expectedVersion?: number,
  ): Promise<ConfigRecord> {
    const patch = normalizedConfigPatch(given);
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) continue;
      const reason = checkServerConfigValue(key, value);
      if (reason !== undefined) throw invalid(serverConfigErrorMessage(key, value, reason));
    }
    const merged: Record<string, string | undefined> = { ...this.runtime.config.values };
    for (const [key, value] of Object.entries(patch)) merged[key] = value ?? undefined;
    const clash = checkServerConfigCombination(merged);
    if (clash !== undefined) throw invalid(serverConfigErrorMessage(clash.key, clash.value, clash.reason));
    const scriptlet = patch[SCRIPTLET_KEY];
    if (scriptlet !== undefined && scriptlet !== null)
      await checkScriptletValue(this.runtime.scriptlets, scriptlet);
    const next = await this.runtime.store.setConfig(patch, expectedVersion);
    this.runtime.setConfig(next);
    if (RATIO_KEYS.some((key) => key in patch)) await this.members.rederiveAll();
    return cloneJson(next);
  }

  /** PUT semantics: the given values replace the whole config (keys left out, or `""`, are unset). */
  async replace(values: Record<string, string | undefined>, expectedVersion?: number): Promise<ConfigRecord> {
    const current = await this.get();
    const patch: Record<string, string | null | undefined> = {};
    for (const key of Object.keys(current.values)) patch[key] = null;
    for (const [key, value] of Object.entries(values)) if (value !== undefined) patch[key] = value;
    return this.set(patch, expectedVersion);
  }

  /**
   * What setting `instances.placement.scriptlet` to `source` would say,
   * without setting it: undefined when it would be accepted, else the
   * reason and where (line and column when the error has a position).
   * The same check a config set and a dry run with a proposed scriptlet
   * run (compile, top level, entry point signature), for editors that
   * check as the operator types.
   */
  checkScriptlet(source: string): Promise<ScriptletProblem | undefined> {
    return scriptletProblem(this.runtime.scriptlets, source);
  }
}
