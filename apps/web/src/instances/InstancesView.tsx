import type { Instance } from "@berth/api-types";
import { useQueryClient } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { type KeyboardEvent, useDeferredValue, useEffect, useId, useMemo, useRef, useState } from "react";
import { Link, useLocation } from "wouter";
import { useInstances, useProjects } from "../api/queries.js";
import { classLabel, formatAmount } from "../format/amounts.js";
import { applyChanges } from "../live/use-live-updates.js";
import { useSession } from "../session/session-context.js";
import { ConfirmDialog } from "../ui/ConfirmDialog.js";
import { ErrorNotice } from "../ui/ErrorNotice.js";
import { StatusBadge } from "../ui/StatusBadge.js";
import { PlacementRecord } from "./PlacementRecord.js";
import { type Kind, labelOf, searchInstances, statusOf } from "./search.js";

const ROW_HEIGHT = 40;

export function usageText(resources: Record<string, number>): string {
  const parts = Object.entries(resources).map(
    ([name, amount]) => `${classLabel(name)} ${formatAmount(name, amount)}`,
  );
  return parts.length > 0 ? parts.join(" · ") : "–";
}

function instancePath(instance: Instance): string {
  return `/instances/${encodeURIComponent(instance.project)}/${encodeURIComponent(labelOf(instance))}`;
}

/** The project shown: the URL's, else the first the caller may use ("default" for admins). */
function useProjectChoice(selected: { project: string } | null) {
  const projects = useProjects();
  const names = (projects.data ?? []).map((project) => project.name);
  const [chosen, setChosen] = useState<string | null>(null);
  const fallback = names.includes("default") ? "default" : (names[0] ?? "default");
  const project = selected?.project ?? chosen ?? fallback;
  return { project, names, setProject: setChosen, projects };
}

function InstanceTable({ instances, selected }: { instances: readonly Instance[]; selected: string | null }) {
  const scroller = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const [, navigate] = useLocation();
  const virtualizer = useVirtualizer({
    count: instances.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const focusRow = (index: number) => {
    const bounded = Math.max(0, Math.min(instances.length - 1, index));
    setActive(bounded);
    virtualizer.scrollToIndex(bounded, { align: "auto" });
    requestAnimationFrame(() =>
      scroller.current
        ?.querySelector<HTMLElement>(`[data-index="${bounded}"] a`)
        ?.focus({ preventScroll: true }),
    );
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, number> = {
      ArrowDown: active + 1,
      ArrowUp: active - 1,
      Home: 0,
      End: instances.length - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    focusRow(next);
  };
  return (
    <div
      className="instance-table"
      role="table"
      aria-label="Instances and reservations"
      aria-rowcount={instances.length + 1}
    >
      <div className="instance-row instance-head" role="row" aria-rowindex={1}>
        {["Name", "Project", "Member", "Flavor", "Holds", "Status"].map((title) => (
          <span role="columnheader" key={title}>
            {title}
          </span>
        ))}
      </div>
      <div className="instance-scroll" ref={scroller} role="rowgroup" onKeyDown={onKeyDown}>
        <div role="presentation" style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualizer.getVirtualItems().map((item) => {
            const instance = instances[item.index]!;
            const label = labelOf(instance);
            const current = selected === label;
            return (
              <div
                key={instance.uuid}
                role="row"
                aria-rowindex={item.index + 2}
                className={`instance-row${current ? " selected" : ""}`}
                style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
                data-index={item.index}
                data-instance={label}
              >
                <span role="cell">
                  <Link
                    href={instancePath(instance)}
                    tabIndex={item.index === active ? 0 : -1}
                    aria-current={current ? "page" : undefined}
                    onFocus={() => setActive(item.index)}
                    onKeyDown={(event: KeyboardEvent) => {
                      if (event.key === " ") {
                        event.preventDefault();
                        navigate(instancePath(instance));
                      }
                    }}
                  >
                    {label}
                  </Link>
                </span>
                <span role="cell">{instance.project}</span>
                <span role="cell">{instance.location}</span>
                <span role="cell">{instance.flavor || "–"}</span>
                <span role="cell" className="usage">
                  {usageText(instance.resources)}
                </span>
                <span role="cell">
                  <StatusBadge status={statusOf(instance)} />
                </span>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

function InstanceDetail({ instance, onGone }: { instance: Instance; onGone(): void }) {
  const { session } = useSession();
  const client = useQueryClient();
  const [confirming, setConfirming] = useState<"commit" | "cancel" | null>(null);
  const label = labelOf(instance);
  const changed = () => applyChanges(client, ["instances", "members"]);
  return (
    <aside className="detail" aria-labelledby="detail-title">
      <h2 id="detail-title">
        {instance.forthcoming ? "Reservation" : "Instance"} {label}
      </h2>
      <dl className="facts">
        <div>
          <dt>Member</dt>
          <dd>{instance.location}</dd>
        </div>
        <div>
          <dt>Project</dt>
          <dd>{instance.project}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <StatusBadge status={statusOf(instance)} />
          </dd>
        </div>
        <div>
          <dt>{instance.forthcoming ? "Holds" : "Uses"}</dt>
          <dd>{usageText(instance.resources)}</dd>
        </div>
        <div>
          <dt>Flavor</dt>
          <dd>{instance.flavor || "–"}</dd>
        </div>
        <div>
          <dt>UUID</dt>
          <dd className="mono">{instance.uuid}</dd>
        </div>
      </dl>
      {instance.forthcoming ? (
        <div className="actions">
          <button type="button" className="primary" onClick={() => setConfirming("commit")}>
            Commit reservation
          </button>
          <button type="button" className="danger" onClick={() => setConfirming("cancel")}>
            Cancel reservation
          </button>
        </div>
      ) : null}
      <PlacementRecord project={instance.project} name={label} />
      {confirming === "commit" ? (
        <ConfirmDialog
          title={`Commit reservation ${label}?`}
          confirm="Commit"
          onClose={() => setConfirming(null)}
          onConfirm={async () => {
            await session.api.commitReservation(instance.uuid, {}, { project: instance.project });
            changed();
          }}
        >
          <p>
            It becomes a real instance on {instance.location}, using what it holds (
            {usageText(instance.resources)}). Committing never fails for capacity: the reservation already
            counts as used.
          </p>
        </ConfirmDialog>
      ) : null}
      {confirming === "cancel" ? (
        <ConfirmDialog
          title={`Cancel reservation ${label}?`}
          confirm="Cancel reservation"
          danger
          onClose={() => setConfirming(null)}
          onConfirm={async () => {
            await session.api.instances.delete(instance.uuid, { project: instance.project });
            changed();
            onGone();
          }}
        >
          <p>
            It is deleted and {usageText(instance.resources)} on {instance.location} become free again.
          </p>
        </ConfirmDialog>
      ) : null}
    </aside>
  );
}

/** Instances and reservations of a project: searchable, each with why it landed where it did. */
export function InstancesView({ selected }: { selected: { project: string; name: string } | null }) {
  const { project, names, setProject, projects } = useProjectChoice(selected);
  const instances = useInstances(project);
  const [query, setQuery] = useState("");
  const [kind, setKind] = useState<Kind>("all");
  const [, navigate] = useLocation();
  const searchId = useId();
  const projectId = useId();
  const kindId = useId();
  const deferredQuery = useDeferredValue(query);
  const shown = useMemo(
    () => searchInstances(instances.data ?? [], deferredQuery, kind),
    [instances.data, deferredQuery, kind],
  );
  const current =
    selected === null
      ? undefined
      : (instances.data ?? []).find((instance) => labelOf(instance) === selected.name);
  useEffect(() => {
    if (instances.data !== undefined) document.body.dataset.instancesReady = String(instances.data.length);
  }, [instances.data]);
  return (
    <section aria-labelledby="instances-title" className="view">
      <h1 id="instances-title">Instances</h1>
      {projects.error !== null ? <ErrorNotice error={projects.error} title="Cannot list projects" /> : null}
      <div className="toolbar" role="search" aria-label="Find instances">
        <span className="field">
          <label htmlFor={projectId}>Project</label>
          <select
            id={projectId}
            value={project}
            onChange={(event) => {
              setProject(event.target.value);
              navigate("/instances");
            }}
          >
            {(names.length > 0 ? names : [project]).map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </span>
        <span className="field grow">
          <label htmlFor={searchId}>Search</label>
          <input
            id={searchId}
            type="search"
            value={query}
            placeholder="name, member, flavor, status…"
            onChange={(event) => setQuery(event.target.value)}
          />
        </span>
        <span className="field">
          <label htmlFor={kindId}>Show</label>
          <select id={kindId} value={kind} onChange={(event) => setKind(event.target.value as Kind)}>
            <option value="all">Instances and reservations</option>
            <option value="instances">Instances</option>
            <option value="reservations">Reservations</option>
          </select>
        </span>
      </div>
      {instances.error !== null ? (
        <ErrorNotice error={instances.error} title="Cannot list instances" />
      ) : null}
      {instances.isPending ? <p aria-busy="true">Loading instances…</p> : null}
      {instances.data !== undefined ? (
        <>
          <p className="muted" aria-live="polite">
            {shown.length.toLocaleString("en-US")} of {instances.data.length.toLocaleString("en-US")} shown.
          </p>
          <div className={current !== undefined ? "split" : undefined}>
            <InstanceTable instances={shown} selected={selected?.name ?? null} />
            {current !== undefined ? (
              <InstanceDetail instance={current} onGone={() => navigate("/instances")} />
            ) : null}
            {selected !== null && current === undefined ? (
              <p className="muted" role="status">
                No instance "{selected.name}" in project "{project}" (any more).
              </p>
            ) : null}
          </div>
        </>
      ) : null}
    </section>
  );
}
