import type { DryRunResult } from "@berth/api-types";
import { Rejections } from "../instances/PlacementRecord.js";
import { ScriptletLog } from "./ScriptletLog.js";

/** What a dry run decided: the member (and who chose it) or the error, candidates, rejections, the log. */
export function DryRunResultView({ result }: { result: DryRunResult }) {
  const decision = result.decision;
  return (
    <section aria-labelledby="dry-title" className="dry-result" aria-live="polite">
      <h3 id="dry-title">Dry run</h3>
      {decision.outcome === "placed" ? (
        <p className="notice notice-ok">
          Would place on <strong>{decision.location}</strong> (decided by {decision.decided_by}).
        </p>
      ) : (
        <p className="notice notice-error">
          Rejected (HTTP {decision.error_code}): {decision.error}
        </p>
      )}
      <h4>Candidates ({result.candidates.length})</h4>
      <p>{result.candidates.length > 0 ? result.candidates.join(", ") : "None."}</p>
      <h4>Turned down</h4>
      <Rejections groups={result.rejections} />
      <h4>Scriptlet log</h4>
      {result.scriptlet_ran ? (
        <>
          <p className="muted">
            {result.cost.steps.toLocaleString("en-US")} steps, {result.cost.time_ms.toFixed(2)} ms.
          </p>
          <ScriptletLog lines={result.log} />
        </>
      ) : (
        <p className="muted">No scriptlet ran.</p>
      )}
    </section>
  );
}
