import { BerthApiError } from "@berth/client";
import { usePlacementRecord } from "../api/queries.js";
import { ScriptletLog } from "../scriptlet/ScriptletLog.js";
import { ErrorNotice } from "../ui/ErrorNotice.js";
import { candidatesText, deciderText, leadingText, reasonText } from "./decision-text.js";

/** A list of rejection groups: "2 members are offline: node3, node4". */
export function Rejections({
  groups,
}: {
  groups: readonly { code: string; count: number; text: string; members: string[]; capacity: boolean }[];
}) {
  if (groups.length === 0) return <p className="muted">No member was turned down.</p>;
  return (
    <ul className="rejections">
      {groups.map((group) => {
        const more = group.count - group.members.length;
        return (
          <li key={group.code} className={group.capacity ? "capacity" : "policy"}>
            <span className="rejection-text">{group.text}</span>
            {group.members.length > 0 ? (
              <span className="muted">
                : {group.members.join(", ")}
                {more > 0 ? ` and ${more.toLocaleString("en-US")} more` : ""}
              </span>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/** "Why here?": the instance's decision record. */
export function PlacementRecord({ project, name }: { project: string; name: string }) {
  const record = usePlacementRecord(project, name);
  if (record.isPending) return <p aria-busy="true">Loading the decision…</p>;
  if (record.error !== null) {
    if (record.error instanceof BerthApiError && record.error.status === 404) {
      return <p className="muted">{record.error.message}</p>;
    }
    return <ErrorNotice error={record.error} title="Cannot read the decision" />;
  }
  const decision = record.data;
  return (
    <section aria-labelledby="why-title" className="why">
      <h3 id="why-title">Why {decision.member}?</h3>
      <p>
        {reasonText(decision)[0]!.toUpperCase() + reasonText(decision).slice(1)} on{" "}
        <time dateTime={decision.decided_at}>{new Date(decision.decided_at).toLocaleString()}</time>.{" "}
        {deciderText(decision)}
      </p>
      <h4>Candidates</h4>
      <p>
        {candidatesText(decision)} {leadingText(decision)}
      </p>
      <h4>Turned down</h4>
      <Rejections groups={decision.rejections} />
      <h4>Scriptlet</h4>
      {decision.scriptlet === null ? (
        <p className="muted">No scriptlet ran for this decision.</p>
      ) : (
        <>
          <p>
            Ran in {decision.scriptlet.steps.toLocaleString("en-US")} steps (
            {decision.scriptlet.time_ms.toFixed(2)} ms).
          </p>
          <ScriptletLog lines={decision.log} />
          {decision.log_dropped > 0 ? (
            <p className="muted">{decision.log_dropped} more lines not kept.</p>
          ) : null}
        </>
      )}
    </section>
  );
}
