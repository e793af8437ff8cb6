/**
 * The scriptlet an operation's decide steps consult, set up once per
 * operation: its runs share the operation's total deadline.
 */

import { EngineError } from "../base/errors.js";
import { thenOrNow } from "../base/then-or-now.js";
import { CatalogCache } from "../expand/catalog-cache.js";
import { expandInstances } from "../expand/instance-expansion.js";
import type { ScriptletLogger, ScriptletResult } from "../scriptlet/port.js";
import { type ListedInstance, ModelClusterView, needsInstanceList } from "./cluster-view.js";
import type { ScriptletContext } from "./context.js";
import type { ScriptletSetup } from "./decide.js";
import { withOperationDeadline } from "./scriptlet-deadline.js";

/**
 * Every stored instance with its expansion (profiles, instance type and
 * flavor sizing), as `get_instances()` shows them: the same expansion the
 * API answers with.
 */
async function listedInstances(context: ScriptletContext): Promise<ListedInstance[]> {
  const records = await context.store.listInstances();
  const expansions = await expandInstances(records, new CatalogCache(context), async (name) => {
    const project = context.model.projects.get(name) ?? (await context.store.projects.get({ name }));
    if (project === undefined) throw new EngineError("not_found", `Project "${name}" not found`);
    return project;
  });
  return records.map((record, i) => ({ record, expansion: expansions[i]! }));
}

/**
 * The scriptlet setup for this operation, or null when none is configured.
 * `proposedSource` (a dry run's `scriptletSource`, already validated) runs
 * instead of the configured scriptlet; "" means no scriptlet. The caller's
 * `signal` (the caller gave up) reaches every run of the operation; it is
 * read only when a scriptlet runs (a server may make it on first read).
 */
export async function scriptletSetup(
  context: ScriptletContext,
  proposedSource?: string,
  caller?: { readonly signal?: AbortSignal | undefined },
): Promise<ScriptletSetup | null> {
  return scriptletSetupOrNone(context, proposedSource, caller);
}

/**
 * `scriptletSetup`, answering at once (no promise) unless the instance list
 * must be read first: most placements have no scriptlet, and a create then
 * takes one promise and one async frame fewer; one with a scriptlet that
 * reads no instance list none either.
 */
export function scriptletSetupOrNone(
  context: ScriptletContext,
  proposedSource?: string,
  caller?: { readonly signal?: AbortSignal | undefined },
): ScriptletSetup | null | Promise<ScriptletSetup> {
  const source = proposedSource ?? context.effective.scriptlet;
  if (source === "") return null;
  return setupOf(context, source, proposedSource === undefined, caller?.signal);
}

/** Synchronous unless the scriptlet can read the instance list, which is read first. */
function setupOf(
  context: ScriptletContext,
  source: string,
  configured: boolean,
  signal: AbortSignal | undefined,
): ScriptletSetup | Promise<ScriptletSetup> {
  if (!needsInstanceList(source)) return setupWith(context, source, configured, signal, null);
  return listedInstances(context).then((listed) => setupWith(context, source, configured, signal, listed));
}

function setupWith(
  context: ScriptletContext,
  source: string,
  configured: boolean,
  signal: AbortSignal | undefined,
  prefetched: ListedInstance[] | null,
): ScriptletSetup {
  const logger: ScriptletLogger = {
    log: (line) =>
      context.logger.log(line.level, `Instance placement scriptlet: ${line.message}`, {
        instance: line.instance,
        project: line.project,
        reason: line.reason,
      }),
  };
  const host = context.scriptlets;
  const run = withOperationDeadline(host, context.effective.scriptletTotalTimeoutMs);
  const counted = (result: ScriptletResult): ScriptletResult => {
    context.metrics.scriptletRan(result.outcome.kind, result.cost.steps);
    return result;
  };
  return {
    // Counts every run (and its steps) for the metrics endpoint.
    host: {
      validate: (text, limits) => host.validate(text, limits),
      close: () => host.close(),
      run: (version, text, call, log) => {
        const result = run(version, text, signal === undefined ? call : { ...call, signal }, log);
        return thenOrNow(result, counted);
      },
    },
    // A proposed scriptlet is not a configuration version: the host caches it by source.
    version: configured ? context.config.version : null,
    source,
    limits: context.effective.scriptletLimits,
    cluster: new ModelClusterView(context.model, context.timing(), prefetched),
    logger,
  };
}
