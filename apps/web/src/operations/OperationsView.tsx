import type { ClusterMemberFull, RebalancePlan } from "@berth/api-types";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useMembers } from "../api/queries.js";
import { applyChanges } from "../live/use-live-updates.js";
import { useSession } from "../session/session-context.js";
import { ConfirmDialog } from "../ui/ConfirmDialog.js";
import { ErrorNotice } from "../ui/ErrorNotice.js";
import { StatusBadge } from "../ui/StatusBadge.js";
import { AutomaticRebalance } from "./AutomaticRebalance.js";

/** What an evacuation or restore answered: the instances it moved. */
interface MoveOutcome {
  member: string;
  moved: { project: string; name: string; from: string; to: string }[];
  stayed?: { name: string }[];
}

function outcomeText(action: "evacuate" | "restore", outcome: MoveOutcome): string {
  const verb = action === "evacuate" ? "Evacuated" : "Restored";
  const moved = outcome.moved.map((move) => `${move.name} ${move.from} → ${move.to}`).join(", ");
  const stayed =
    outcome.stayed !== undefined && outcome.stayed.length > 0
      ? `; stayed (cluster.evacuate=stop): ${outcome.stayed.map((s) => s.name).join(", ")}`
      : "";
  return `${verb} ${outcome.member}: ${outcome.moved.length} instance(s) moved${moved !== "" ? ` (${moved})` : ""}${stayed}.`;
}

function PlanTable({ plan, caption }: { plan: RebalancePlan; caption: string }) {
  return (
    <table className="plan">
      <caption>
        {caption}: imbalance {plan.score_before.toFixed(3)} → {plan.score_after.toFixed(3)}
      </caption>
      <thead>
        <tr>
          <th scope="col">Instance</th>
          <th scope="col">Project</th>
          <th scope="col">From</th>
          <th scope="col">To</th>
          <th scope="col">Gain</th>
        </tr>
      </thead>
      <tbody>
        {plan.moves.map((move) => (
          <tr key={`${move.project}/${move.instance}`}>
            <td>{move.instance}</td>
            <td>{move.project}</td>
            <td>{move.from}</td>
            <td>{move.to}</td>
            <td>{move.gain.toFixed(4)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Evacuate or restore members, and preview and apply a rebalance plan: each behind a confirmation;
 * preview the next automatic rebalancing run.
 */
export function OperationsView() {
  const { session } = useSession();
  const client = useQueryClient();
  const members = useMembers();
  const [pending, setPending] = useState<{
    action: "evacuate" | "restore";
    member: ClusterMemberFull;
  } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [plan, setPlan] = useState<RebalancePlan | null>(null);
  const [applied, setApplied] = useState<RebalancePlan | null>(null);
  const [planError, setPlanError] = useState<unknown>(null);
  const [confirmPlan, setConfirmPlan] = useState(false);
  const changed = () => applyChanges(client, ["members", "instances"]);

  const preview = async () => {
    setPlanError(null);
    setApplied(null);
    try {
      setPlan(await session.api.rebalancePlan());
    } catch (error) {
      setPlan(null);
      setPlanError(error);
    }
  };

  return (
    <section aria-labelledby="ops-title" className="view">
      <h1 id="ops-title">Operations</h1>
      {done !== null ? (
        <p className="notice notice-ok" role="status">
          {done}
        </p>
      ) : null}
      <h2 className="subhead">Evacuate and restore</h2>
      <p className="muted">
        Evacuating moves every instance off a member (all of them or none) and stops new placements on it;
        restoring brings back exactly the instances evacuated from it.
      </p>
      {members.error !== null ? <ErrorNotice error={members.error} title="Cannot list members" /> : null}
      {members.data !== undefined ? (
        <div className="ops-members">
          <table>
            <caption className="visually-hidden">Members and their state</caption>
            <thead>
              <tr>
                <th scope="col">Member</th>
                <th scope="col">Status</th>
                <th scope="col">Failure domain</th>
                <th scope="col">Instances</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {members.data.map((member) => (
                <tr key={member.server_name} data-member={member.server_name}>
                  <th scope="row">{member.server_name}</th>
                  <td>
                    <StatusBadge status={member.status} />
                  </td>
                  <td>{member.failure_domain || "–"}</td>
                  <td>{member.instance_count}</td>
                  <td>
                    {member.status === "Evacuated" ? (
                      <button type="button" onClick={() => setPending({ action: "restore", member })}>
                        Restore {member.server_name}
                      </button>
                    ) : (
                      <button
                        type="button"
                        className="danger"
                        onClick={() => setPending({ action: "evacuate", member })}
                      >
                        Evacuate {member.server_name}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <h2 className="subhead">Rebalance</h2>
      <p className="muted">
        A plan of moves that evens out instance counts and fill; previewing moves nothing. Applying plans
        again on the cluster as it is then, and lands every move or none.
      </p>
      <div className="actions">
        <button type="button" onClick={() => void preview()}>
          Preview rebalance plan
        </button>
        <button
          type="button"
          className="primary"
          disabled={plan === null || plan.moves.length === 0}
          onClick={() => setConfirmPlan(true)}
        >
          Apply plan
        </button>
      </div>
      {planError !== null ? <ErrorNotice error={planError} title="Cannot plan" /> : null}
      {plan !== null && plan.moves.length === 0 && applied === null ? (
        <p role="status">The cluster is balanced: no move would help.</p>
      ) : null}
      {plan !== null && plan.moves.length > 0 && applied === null ? (
        <PlanTable plan={plan} caption="Preview" />
      ) : null}
      {applied !== null ? (
        <PlanTable plan={applied} caption={`Applied ${applied.moves.length} move(s)`} />
      ) : null}
      <AutomaticRebalance />
      {pending !== null ? (
        <ConfirmDialog
          title={`${pending.action === "evacuate" ? "Evacuate" : "Restore"} ${pending.member.server_name}?`}
          confirm={pending.action === "evacuate" ? "Evacuate" : "Restore"}
          danger={pending.action === "evacuate"}
          onClose={() => setPending(null)}
          onConfirm={async () => {
            const name = pending.member.server_name;
            const outcome = (
              pending.action === "evacuate"
                ? await session.api.evacuateMember(name)
                : await session.api.restoreMember(name)
            ) as MoveOutcome;
            setDone(outcomeText(pending.action, outcome));
            changed();
          }}
        >
          {pending.action === "evacuate" ? (
            <p>
              Its {pending.member.instance_count} instance(s) are placed elsewhere (reason "evacuation"; the
              scriptlet runs for each), all or none, and it takes no new instances until restored.
            </p>
          ) : (
            <p>It takes instances again, and the instances evacuated from it move back.</p>
          )}
        </ConfirmDialog>
      ) : null}
      {confirmPlan && plan !== null ? (
        <ConfirmDialog
          title={`Apply a rebalance of ${plan.moves.length} move(s)?`}
          confirm="Apply plan"
          onClose={() => setConfirmPlan(false)}
          onConfirm={async () => {
            setApplied((await session.api.rebalanceApply()) as RebalancePlan);
            setPlan(null);
            changed();
          }}
        >
          <p>
            The server plans again on the cluster as it is now and moves every instance of that plan, or none.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
