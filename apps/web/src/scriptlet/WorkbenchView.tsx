import type { DryRunResult } from "@berth/api-types";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useMemo, useState } from "react";
import { keys, useInstances, useProjects, useServer } from "../api/queries.js";
import { applyChanges } from "../live/use-live-updates.js";
import { useSession } from "../session/session-context.js";
import { ConfirmDialog } from "../ui/ConfirmDialog.js";
import { ErrorNotice, errorText } from "../ui/ErrorNotice.js";
import { ConfigField, FlavorField, TargetField } from "../ui/RequestFields.js";
import { DryRunResultView } from "./DryRunResult.js";
import { checkSummary, markOf } from "./diagnostics.js";
import { bodyOf, EMPTY_REQUEST, formFromInstance, type RequestForm } from "./request.js";
import { ScriptletEditor } from "./ScriptletEditor.js";
import { useScriptletCheck } from "./use-check.js";

const SCRIPTLET_KEY = "instances.placement.scriptlet";

/** A start for an empty editor: LXD's example, with a log line so the dry run shows one. */
export const TEMPLATE = `def instance_placement(request, candidate_members):
    log_info("placing ", request.name, " among ", len(candidate_members), " candidates")
    # Leave the choice to the default policy (fewest instances):
    return
`;

function RequestFields({ form, setForm }: { form: RequestForm; setForm(form: RequestForm): void }) {
  const projects = useProjects();
  const recent = useInstances(form.project);
  const ids = {
    name: useId(),
    project: useId(),
    flavor: useId(),
    type: useId(),
    config: useId(),
    target: useId(),
    pick: useId(),
  };
  const set = (patch: Partial<RequestForm>) => setForm({ ...form, ...patch });
  const placed = (recent.data ?? [])
    .filter((instance) => instance.name !== "")
    .slice(-50)
    .reverse();
  return (
    <fieldset className="request">
      <legend>Request</legend>
      <span className="field">
        <label htmlFor={ids.pick}>Start from a recent placement</label>
        <select
          id={ids.pick}
          value=""
          onChange={(event) => {
            const instance = placed.find((candidate) => candidate.name === event.target.value);
            if (instance !== undefined) setForm(formFromInstance(instance));
          }}
        >
          <option value="">Choose an instance…</option>
          {placed.map((instance) => (
            <option key={instance.uuid} value={instance.name}>
              {instance.name} (on {instance.location})
            </option>
          ))}
        </select>
      </span>
      <span className="field">
        <label htmlFor={ids.name}>Name</label>
        <input id={ids.name} value={form.name} onChange={(event) => set({ name: event.target.value })} />
      </span>
      <span className="field">
        <label htmlFor={ids.project}>Project</label>
        <select
          id={ids.project}
          value={form.project}
          onChange={(event) => set({ project: event.target.value })}
        >
          {(projects.data ?? [{ name: form.project }]).map((project) => (
            <option key={project.name} value={project.name}>
              {project.name}
            </option>
          ))}
        </select>
      </span>
      <FlavorField
        id={ids.flavor}
        value={form.flavor}
        noneLabel="None"
        onChange={(flavor) => set({ flavor })}
      />
      <span className="field">
        <label htmlFor={ids.type}>Type</label>
        <select
          id={ids.type}
          value={form.type}
          onChange={(event) => set({ type: event.target.value as RequestForm["type"] })}
        >
          <option value="container">container</option>
          <option value="virtual-machine">virtual-machine</option>
        </select>
      </span>
      <TargetField
        id={ids.target}
        value={form.target}
        label="Target (member or @group, optional)"
        onChange={(target) => set({ target })}
      />
      <ConfigField id={ids.config} value={form.config} rows={3} onChange={(config) => set({ config })} />
    </fieldset>
  );
}

/**
 * The scriptlet workbench: edit the placement scriptlet (Starlark, checked
 * by the server as you type), dry-run it against the live cluster for a
 * request you describe or pick, then apply it. The server's validation has
 * the last word on applying.
 */
export function WorkbenchView() {
  const { session } = useSession();
  const client = useQueryClient();
  const server = useServer();
  const inForce = server.data?.config[SCRIPTLET_KEY] ?? "";
  const [source, setSource] = useState<string | null>(null);
  const text = source ?? (inForce !== "" ? inForce : TEMPLATE);
  const { check, failure } = useScriptletCheck(text);
  const mark = useMemo(() => (check === null ? null : markOf(text, check)), [check, text]);
  const [form, setForm] = useState<RequestForm>(EMPTY_REQUEST);
  const [result, setResult] = useState<DryRunResult | null>(null);
  const [runError, setRunError] = useState<unknown>(null);
  const [running, setRunning] = useState(false);
  const [confirm, setConfirm] = useState<"apply" | "remove" | null>(null);
  const labelId = useId();
  const statusId = useId();
  useEffect(() => {
    if (server.data !== undefined) document.body.dataset.workbenchReady = "true";
  }, [server.data]);

  const dryRun = async () => {
    setRunning(true);
    setRunError(null);
    try {
      const target = form.target.trim();
      setResult(
        await session.api.dryRun(bodyOf(form), {
          project: form.project,
          ...(target !== "" ? { target } : {}),
          scriptletSource: text.trim() === "" ? "" : text,
        }),
      );
    } catch (error) {
      setResult(null);
      setRunError(error);
    } finally {
      setRunning(false);
    }
  };
  const apply = async (value: string) => {
    await session.api.patchServerConfig({ [SCRIPTLET_KEY]: value });
    applyChanges(client, ["config"]);
    await client.refetchQueries({ queryKey: keys.server });
    setSource(null);
  };
  const changed = source !== null && source !== inForce;
  return (
    <section aria-labelledby="workbench-title" className="view">
      <h1 id="workbench-title">Scriptlet workbench</h1>
      {server.error !== null ? (
        <ErrorNotice error={server.error} title="Cannot read the server config" />
      ) : null}
      <div className="workbench">
        <div className="workbench-editor">
          <h2 id={labelId} className="subhead">
            Placement scriptlet{" "}
            <span className="muted">
              ({inForce === "" ? "none in force" : changed ? "edited, not applied" : "in force"})
            </span>
          </h2>
          <ScriptletEditor
            value={text}
            onChange={setSource}
            mark={mark}
            labelledBy={labelId}
            describedBy={statusId}
          />
          <p
            id={statusId}
            className={`check ${check === null ? "" : check.valid ? "check-ok" : "check-error"}`}
            role="status"
          >
            {failure !== null ? `Cannot check: ${errorText(failure)}` : checkSummary(check, text)}
          </p>
          <div className="actions">
            <button
              type="button"
              className="primary"
              onClick={() => setConfirm("apply")}
              disabled={check?.valid === false}
            >
              Apply scriptlet
            </button>
            <button
              type="button"
              onClick={() => setSource(inForce === "" ? TEMPLATE : inForce)}
              disabled={!changed}
            >
              Reset to the one in force
            </button>
            <button
              type="button"
              className="danger"
              onClick={() => setConfirm("remove")}
              disabled={inForce === ""}
            >
              Remove scriptlet
            </button>
          </div>
        </div>
        <div className="workbench-request">
          <RequestFields form={form} setForm={setForm} />
          <button type="button" className="primary" onClick={() => void dryRun()} disabled={running}>
            {running ? "Running…" : "Dry run"}
          </button>
          {runError !== null ? <ErrorNotice error={runError} title="Dry run refused" /> : null}
          {result !== null ? <DryRunResultView result={result} /> : null}
        </div>
      </div>
      {confirm === "apply" ? (
        <ConfirmDialog
          title="Apply this scriptlet?"
          confirm="Apply"
          onClose={() => setConfirm(null)}
          onConfirm={() => apply(text.trim() === "" ? "" : text)}
        >
          <p>
            From now on it decides every placement without an explicit member target. The server checks it
            once more and keeps the one in force if it refuses.
          </p>
        </ConfirmDialog>
      ) : null}
      {confirm === "remove" ? (
        <ConfirmDialog
          title="Remove the scriptlet?"
          confirm="Remove"
          danger
          onClose={() => setConfirm(null)}
          onConfirm={() => apply("")}
        >
          <p>Placements go back to the default policy (fewest instances, ties in join order).</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
