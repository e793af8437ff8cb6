/**
 * The scriptlet an operation's decide steps consult, set up once per
 * operation: its runs share the operation's total deadline.
 */
import { ModelClusterView, needsInstanceList } from "../engine/cluster-view.js";
import type { EngineRuntime } from "../engine/runtime.js";
import type { ScriptletLogger } from "../scriptlet/port.js";
import type { ScriptletSetup } from "./decide.js";
import { withOperationDeadline } from "./scriptlet-deadline.js";

/**
 * The scriptlet setup for this operation, or null when none is configured.
 * `proposedSource` (a dry run's `scriptletSource`, already validated) runs
 * instead of the configured scriptlet; "" means no scriptlet.
 */
export async function scriptletSetup(
  runtime: EngineRuntime,
  proposedSource?: string,
): Promise<ScriptletSetup | null> {
  const source = proposedSource ?? runtime.effective.scriptlet;
  if (source === "") return null;
  const prefetched = needsInstanceList(source) ? await runtime.store.listInstances() : null;
  const logger: ScriptletLogger = {
    log: (line) =>
      runtime.logger.log(line.level, `Instance placement scriptlet: ${line.message}`, {
        instance: line.instance,
        project: line.project,
        reason: line.reason,
      }),
  };
  const host = runtime.scriptletHost;
  const run = withOperationDeadline(host, runtime.effective.scriptletTotalTimeoutMs);
  return {
    // Counts every run (and its steps) for the metrics endpoint.
    host: {
      validate: (text) => host.validate(text),
      run: (version, text, call, log) => {
        const result = run(version, text, call, log);
        runtime.metrics.scriptletRan(result.outcome.kind, result.cost.steps);
        return result;
      },
    },
    // A proposed scriptlet is not a configuration version: the host caches it by source.
    version: proposedSource === undefined ? runtime.config.version : null,
    source,
    limits: runtime.effective.scriptletLimits,
    cluster: new ModelClusterView(runtime.model, runtime.timing(), prefetched),
    logger,
  };
}
