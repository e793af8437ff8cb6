import type { EffectiveServerConfig } from "@berth/api-types";
import type { Clock } from "../base/clock.js";
import type { Logger } from "../base/logger.js";
import type { Timing } from "../candidates/filter.js";
import type { PlacementStack } from "../candidates/stack.js";
import type { ExpandContext } from "../expand/context.js";
import type { ClusterModel } from "../model/cluster-model.js";
import type { ScriptletOutcome, ScriptletRunner } from "../scriptlet/port.js";
import type { Store } from "../store/port.js";
import type { ConfigRecord } from "../store/records.js";

/**
 * What planning one placement reads (steps 3 and 4, see plan.ts): the
 * model, the placement stack, the clock and the offline threshold in
 * force. The engine's runtime satisfies it; the steps take this narrow
 * port so deciding never depends on the runtime machinery.
 */
export interface PlanContext {
  readonly model: ClusterModel;
  readonly stack: PlacementStack;
  readonly clock: Clock;
  /** Now, and the offline threshold in force: read once per plan. */
  timing(): Timing;
}

/**
 * What setting up an operation's scriptlet reads (scriptlet-setup.ts):
 * the configured scriptlet and its limits, the runner, the model (what the
 * scriptlet's builtins see) and, for scriptlets that list instances, the
 * stored instances with the catalog that expands them.
 */
export interface ScriptletContext extends ExpandContext {
  readonly store: ExpandContext["store"] & Pick<Store, "listInstances" | "projects">;
  readonly model: ClusterModel;
  readonly effective: Pick<
    EffectiveServerConfig,
    "scriptlet" | "scriptletLimits" | "scriptletTotalTimeoutMs" | "defaultArchitecture"
  >;
  /** The configuration version the configured scriptlet is cached under. */
  readonly config: Pick<ConfigRecord, "version">;
  readonly scriptlets: ScriptletRunner;
  readonly logger: Logger;
  /** Counts every run (and its steps) for the metrics endpoint. */
  readonly metrics: { scriptletRan(outcome: ScriptletOutcome["kind"], steps: number): void };
  timing(): Timing;
}
