import type { ApiInput, ClusterCapacity } from "@berth/api-types";
import { useId, useState } from "react";
import { parseConfig } from "../scriptlet/request.js";
import { useSession } from "../session/session-context.js";
import { ErrorNotice } from "../ui/ErrorNotice.js";
import { ConfigField, FlavorField, TargetField } from "../ui/RequestFields.js";
import { capacityHeadline, largestText, limitedByText, takingMembers } from "./capacity-text.js";

/** Members listed under the answer; the rest are counted (the API answers every member). */
const SHOWN_MEMBERS = 12;

interface CapacityForm {
  flavor: string;
  config: string;
  project: string;
  target: string;
}

const EMPTY: CapacityForm = {
  flavor: "",
  config: "",
  project: "default",
  target: "",
};

function bodyOf(form: CapacityForm): ApiInput<"ClusterCapacityPost"> {
  const config = parseConfig(form.config);
  return {
    ...(form.flavor !== "" ? { flavor: form.flavor } : {}),
    ...(Object.keys(config).length > 0 ? { config } : {}),
  };
}

function Answer({ answer }: { answer: ClusterCapacity }) {
  const { shown, more, none } = takingMembers(answer, SHOWN_MEMBERS);
  const largest = largestText(answer);
  return (
    <div className="capacity-answer">
      <p className="capacity-total" role="status">
        {capacityHeadline(answer)}
      </p>
      {shown.length > 0 ? (
        <table className="capacity-members">
          <thead>
            <tr>
              <th scope="col">Member</th>
              <th scope="col">More</th>
              <th scope="col">Then</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((member) => (
              <tr key={member.name}>
                <td>{member.name}</td>
                <td>{member.instances.toLocaleString("en-US")}</td>
                <td>{limitedByText(member.limited_by)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <p className="muted">
        {more > 0 ? `${more.toLocaleString("en-US")} more members take some; ` : ""}
        {none === 0 ? "Every member takes some." : `${none.toLocaleString("en-US")} take none.`}
      </p>
      {answer.project.limits.map((limit) => (
        <p key={limit.key} className="muted">
          Project {answer.project.name}: {limit.key} {limit.used}/{limit.max} used
          {limit.instances !== null ? `, room for ${limit.instances} more` : ""}
        </p>
      ))}
      {largest !== null ? <p className="muted">Largest that fits: {largest}</p> : null}
      {answer.scriptlet_ignored ? (
        <p className="notice">
          A placement scriptlet is configured: this count assumes the default order, not the scriptlet's
          choices.
        </p>
      ) : null}
    </div>
  );
}

/**
 * "How many more of this fit?": a create body (flavor, config), its
 * project and target, counted by berthd's placement rules
 * (`POST /1.0/cluster/capacity`). Nothing is created.
 */
export function CapacityPanel() {
  const { session } = useSession();
  const [form, setForm] = useState<CapacityForm>(EMPTY);
  const [answer, setAnswer] = useState<ClusterCapacity | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [counting, setCounting] = useState(false);
  const ids = { title: useId(), flavor: useId(), config: useId(), project: useId(), target: useId() };
  const set = (patch: Partial<CapacityForm>) => setForm((current) => ({ ...current, ...patch }));

  const count = async () => {
    setCounting(true);
    setFailure(null);
    try {
      const target = form.target.trim();
      setAnswer(
        await session.api.clusterCapacity(bodyOf(form), {
          project: form.project.trim() === "" ? "default" : form.project.trim(),
          ...(target !== "" ? { target } : {}),
        }),
      );
    } catch (error) {
      setAnswer(null);
      setFailure(error);
    } finally {
      setCounting(false);
    }
  };

  return (
    <section aria-labelledby={ids.title} className="capacity-panel">
      <h2 id={ids.title} className="subhead">
        How many more of this fit?
      </h2>
      <div className="toolbar">
        <FlavorField
          id={ids.flavor}
          value={form.flavor}
          noneLabel="None (config below)"
          onChange={(flavor) => set({ flavor })}
        />
        <ConfigField id={ids.config} value={form.config} rows={2} onChange={(config) => set({ config })} />
        <span className="field">
          <label htmlFor={ids.project}>Project</label>
          <input
            id={ids.project}
            value={form.project}
            onChange={(event) => set({ project: event.target.value })}
          />
        </span>
        <TargetField
          id={ids.target}
          value={form.target}
          label="Target (member or @group)"
          onChange={(target) => set({ target })}
        />
        <button type="button" className="primary" onClick={() => void count()} disabled={counting}>
          {counting ? "Counting…" : "Count"}
        </button>
      </div>
      {failure !== null ? <ErrorNotice error={failure} title="Cannot count" /> : null}
      {answer !== null ? <Answer answer={answer} /> : null}
    </section>
  );
}
