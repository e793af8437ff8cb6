import type { ClusterMemberFull } from "@berth/api-types";
import { useDeferredValue, useEffect, useId, useMemo, useState } from "react";
import { useMembers, useResourceClasses } from "../api/queries.js";
import { classLabel, formatAmount, percent } from "../format/amounts.js";
import { ErrorNotice } from "../ui/ErrorNotice.js";
import { CapacityPanel } from "./CapacityPanel.js";
import { classesOf, clusterFill } from "./fill.js";
import {
  choices,
  type GroupBy,
  type MemberFilter,
  matches,
  NO_FILTER,
  rowsOf,
  sectionsOf,
} from "./grouping.js";
import { HeatMap } from "./HeatMap.js";
import { MemberList } from "./MemberList.js";
import { topologyNamesOf } from "./topology.js";

function Select({
  label,
  value,
  options,
  onChange,
  any = "Any",
}: {
  label: string;
  value: string;
  options: readonly (string | { value: string; label: string })[];
  onChange(value: string): void;
  any?: string | null;
}) {
  const id = useId();
  return (
    <span className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {any !== null ? <option value="">{any}</option> : null}
        {options.map((option) =>
          typeof option === "string" ? (
            <option key={option} value={option}>
              {option}
            </option>
          ) : (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ),
        )}
      </select>
    </span>
  );
}

function Summary({
  members,
  classes,
}: {
  members: readonly ClusterMemberFull[];
  classes: readonly string[];
}) {
  const count = (status: string) => members.filter((member) => member.status === status).length;
  const instances = members.reduce((sum, member) => sum + member.instance_count, 0);
  return (
    <dl className="summary">
      <div>
        <dt>Members</dt>
        <dd>
          {members.length.toLocaleString("en-US")} ({count("Online")} online, {count("Offline")} offline,{" "}
          {count("Evacuated")} evacuated)
        </dd>
      </div>
      <div>
        <dt>Instances</dt>
        <dd>{instances.toLocaleString("en-US")}</dd>
      </div>
      {classes.map((name) => {
        const fill = clusterFill(members, name);
        return (
          <div key={name}>
            <dt>{classLabel(name)}</dt>
            <dd>
              {percent(fill.fraction)} · {formatAmount(name, fill.used)} used
              {fill.forthcoming > 0 ? `, ${formatAmount(name, fill.forthcoming)} reserved` : ""} of{" "}
              {formatAmount(name, fill.capacity)}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

/**
 * "Where is there room?": every member grouped by failure domain or
 * cluster group, with its status and a fill bar per resource class, a heat
 * map of one class across all of them, and filters. Live: it refetches
 * whenever the live source says members changed.
 */
export function ClusterView() {
  const members = useMembers();
  const known = useResourceClasses();
  const [groupBy, setGroupBy] = useState<GroupBy>("failure-domain");
  const [filter, setFilter] = useState<MemberFilter>(NO_FILTER);
  const [heatClass, setHeatClass] = useState("");
  const [picked, setPicked] = useState<string | null>(null);
  const searchId = useId();
  const all = members.data ?? [];
  const classes = useMemo(
    () =>
      classesOf(
        all,
        (known.data ?? []).map((c) => c.name),
      ),
    [all, known.data],
  );
  // Typing in the search box stays responsive at 10,000 members: the list follows a beat later.
  const deferredFilter = useDeferredValue(filter);
  const shown = useMemo(() => all.filter((member) => matches(member, deferredFilter)), [all, deferredFilter]);
  const sections = useMemo(() => sectionsOf(shown, groupBy), [shown, groupBy]);
  const rows = useMemo(() => rowsOf(sections), [sections]);
  const barClasses = filter.resourceClass !== "" ? [filter.resourceClass] : classes;
  const mapClass = heatClass !== "" && classes.includes(heatClass) ? heatClass : (classes[0] ?? "VCPU");
  useEffect(() => {
    if (members.data !== undefined) document.body.dataset.clusterReady = String(members.data.length);
  }, [members.data]);
  const set = (patch: Partial<MemberFilter>) => setFilter((current) => ({ ...current, ...patch }));

  return (
    <section aria-labelledby="cluster-title" className="view">
      <h1 id="cluster-title">Cluster</h1>
      {members.error !== null ? <ErrorNotice error={members.error} title="Cannot list members" /> : null}
      {members.isPending ? <p aria-busy="true">Loading members…</p> : null}
      {members.data !== undefined ? (
        <>
          <Summary members={all} classes={classes} />
          <CapacityPanel />
          <div className="toolbar" role="search" aria-label="Filter members">
            <span className="field">
              <label htmlFor={searchId}>Name</label>
              <input
                id={searchId}
                type="search"
                value={filter.search}
                placeholder="node1…"
                onChange={(event) => set({ search: event.target.value })}
              />
            </span>
            <Select
              label="Group by"
              value={groupBy}
              any={null}
              options={[
                { value: "failure-domain", label: "Failure domain" },
                { value: "cluster-group", label: "Cluster group" },
                ...topologyNamesOf(all).map((name) => ({
                  value: `topology.${name}`,
                  label: `Topology: ${name}`,
                })),
                { value: "none", label: "Nothing" },
              ]}
              onChange={(value) => setGroupBy(value as GroupBy)}
            />
            <Select
              label="Cluster group"
              value={filter.group}
              options={choices(all, (m) => m.groups)}
              onChange={(group) => set({ group })}
            />
            <Select
              label="Trait"
              value={filter.trait}
              options={choices(all, (m) => m.traits ?? [])}
              onChange={(trait) => set({ trait })}
            />
            <Select
              label="Resource class"
              value={filter.resourceClass}
              options={classes.map((name) => ({ value: name, label: classLabel(name) }))}
              onChange={(resourceClass) => set({ resourceClass })}
              any="All"
            />
            <Select
              label="Status"
              value={filter.status}
              options={["Online", "Offline", "Evacuated"]}
              onChange={(status) => set({ status: status as MemberFilter["status"] })}
            />
          </div>
          <p className="muted" aria-live="polite">
            Showing {shown.length.toLocaleString("en-US")} of {all.length.toLocaleString("en-US")} members.
          </p>
          <div className="subhead-row">
            <h2 className="subhead">Heat map</h2>
            <Select
              label="Class shown"
              value={mapClass}
              any={null}
              options={classes.map((name) => ({ value: name, label: classLabel(name) }))}
              onChange={setHeatClass}
            />
          </div>
          <HeatMap
            sections={sections}
            members={shown}
            resourceClass={mapClass}
            onPick={(member) => setPicked(member.server_name)}
          />
          <h2 className="subhead">Members</h2>
          <MemberList rows={rows} classes={barClasses} focusMember={picked} />
        </>
      ) : null}
    </section>
  );
}
