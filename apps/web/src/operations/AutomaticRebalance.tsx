import type { AutomaticRebalancePreview } from "@berth/api-types";
import { automaticRebalanceGroupText, automaticRebalanceSettingsText } from "@berth/client";
import { useState } from "react";
import { useSession } from "../session/session-context.js";
import { ErrorNotice } from "../ui/ErrorNotice.js";

/**
 * Incus's automatic rebalancing (`cluster.rebalance.*`): what the next run
 * would do now, by its rules (GET /1.0/cluster/rebalance/automatic); nothing moves.
 */
export function AutomaticRebalance() {
  const { session } = useSession();
  const [preview, setPreview] = useState<AutomaticRebalancePreview | null>(null);
  const [error, setError] = useState<unknown>(null);

  const load = async () => {
    setError(null);
    try {
      setPreview(await session.api.rebalanceAutomaticPreview());
    } catch (failure) {
      setPreview(null);
      setError(failure);
    }
  };

  return (
    <>
      <h2 className="subhead">Automatic rebalancing</h2>
      <p className="muted">
        With cluster.rebalance.interval set, the server moves up to cluster.rebalance.batch live-migratable
        virtual machines off the busiest member every interval, when its load score is at least
        cluster.rebalance.threshold percent above the least busy one's (Incus's rules; the scriptlet runs with
        reason "rebalance").
      </p>
      <div className="actions">
        <button type="button" onClick={() => void load()}>
          Preview the next automatic run
        </button>
      </div>
      {error !== null ? <ErrorNotice error={error} title="Cannot preview" /> : null}
      {preview !== null ? (
        <div role="status">
          <p>{automaticRebalanceSettingsText(preview)}</p>
          {preview.groups.map((group) => (
            <p key={group.architecture}>{automaticRebalanceGroupText(group, preview.threshold)}</p>
          ))}
          {preview.moves.length === 0 ? <p>The next automatic run moves nothing.</p> : null}
          {preview.moves.length > 0 ? (
            <table className="plan">
              <caption>Moves of the next run</caption>
              <thead>
                <tr>
                  <th scope="col">Instance</th>
                  <th scope="col">Project</th>
                  <th scope="col">From (score)</th>
                  <th scope="col">To (score before → after)</th>
                </tr>
              </thead>
              <tbody>
                {preview.moves.map((move) => (
                  <tr key={`${move.project}/${move.instance}`}>
                    <td>{move.instance}</td>
                    <td>{move.project}</td>
                    <td>
                      {move.from} ({move.from_score})
                    </td>
                    <td>
                      {move.to} ({move.to_score_before} → {move.to_score_after})
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          {preview.stayed.length > 0 ? (
            <table className="plan">
              <caption>Instances that stay</caption>
              <thead>
                <tr>
                  <th scope="col">Instance</th>
                  <th scope="col">Project</th>
                  <th scope="col">Member</th>
                  <th scope="col">Why</th>
                </tr>
              </thead>
              <tbody>
                {preview.stayed.map((stayed) => (
                  <tr key={`${stayed.project}/${stayed.instance}`}>
                    <td>{stayed.instance}</td>
                    <td>{stayed.project}</td>
                    <td>{stayed.member}</td>
                    <td>{stayed.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
