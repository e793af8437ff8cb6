import { useVirtualizer } from "@tanstack/react-virtual";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { classLabel } from "../format/amounts.js";
import { StatusBadge } from "../ui/StatusBadge.js";
import { FillBar } from "./FillBar.js";
import { memberFill } from "./fill.js";
import type { ListRow } from "./grouping.js";
import { topologyLabel } from "./topology.js";

interface Props {
  rows: readonly ListRow[];
  classes: readonly string[];
  /** A member to bring into view and focus (picked on the heat map). */
  focusMember: string | null;
}

const ROW_HEIGHT = 44;
const HEADING_HEIGHT = 32;

/**
 * Every member in its section, virtualised: only the rows in view exist in
 * the page, so 10,000 members scroll as smoothly as 10. A table to
 * assistive technology (row and column counts say how big it really is).
 * Keyboard: Tab moves into the list, arrows move between rows (the list
 * scrolls to follow), Home/End jump, Page Up/Down move a screen.
 */
export function MemberList({ rows, classes, focusMember }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => (rows[index]?.kind === "heading" ? HEADING_HEIGHT : ROW_HEIGHT),
    overscan: 8,
  });
  const focusRow = (index: number) => {
    const bounded = Math.max(0, Math.min(rows.length - 1, index));
    setActive(bounded);
    virtualizer.scrollToIndex(bounded, { align: "auto" });
    // The row exists once the virtualiser has rendered it.
    requestAnimationFrame(() =>
      scroller.current
        ?.querySelector<HTMLElement>(`[data-index="${bounded}"]`)
        ?.focus({ preventScroll: true }),
    );
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new pick moves the focus.
  useEffect(() => {
    if (focusMember === null) return;
    const index = rows.findIndex((row) => row.kind === "member" && row.member.server_name === focusMember);
    if (index >= 0) focusRow(index);
  }, [focusMember]);
  if (active >= rows.length && rows.length > 0) setActive(rows.length - 1);

  const onKeyDown = (event: KeyboardEvent) => {
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = {
      ArrowDown: active + 1,
      ArrowUp: active - 1,
      PageDown: active + page,
      PageUp: active - page,
      Home: 0,
      End: rows.length - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    focusRow(next);
  };

  const columns = 4 + classes.length;
  return (
    <div
      className="member-list"
      role="table"
      aria-label="Cluster members"
      aria-rowcount={rows.length + 1}
      aria-colcount={columns}
      style={{ ["--columns" as string]: String(classes.length) }}
    >
      <div className="member-row member-head" role="row" aria-rowindex={1}>
        <span role="columnheader">Member</span>
        <span role="columnheader">Status</span>
        <span role="columnheader">Groups</span>
        <span role="columnheader">Instances</span>
        {classes.map((name) => (
          <span role="columnheader" key={name}>
            {classLabel(name)}
          </span>
        ))}
      </div>
      <div className="member-scroll" ref={scroller} onKeyDown={onKeyDown} role="rowgroup">
        <div role="presentation" style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index]!;
            const style = { transform: `translateY(${item.start}px)`, height: item.size };
            const focusable = { tabIndex: item.index === active ? 0 : -1, "data-index": item.index };
            if (row.kind === "heading") {
              return (
                <div
                  key={item.key}
                  className="member-row member-section"
                  role="row"
                  aria-rowindex={item.index + 2}
                  style={style}
                  {...focusable}
                >
                  <span role="cell" aria-colspan={columns}>
                    {row.title} <span className="muted">({row.count})</span>
                  </span>
                </div>
              );
            }
            const member = row.member;
            const topology = topologyLabel(member);
            return (
              <div
                key={item.key}
                className={`member-row${member.status !== "Online" ? " unavailable" : ""}`}
                role="row"
                aria-rowindex={item.index + 2}
                style={style}
                data-member={member.server_name}
                onFocus={() => setActive(item.index)}
                {...focusable}
              >
                <span role="cell" className="member-name">
                  {member.server_name}
                  <span className="muted"> {member.failure_domain}</span>
                  {topology === "" ? null : <span className="muted topology"> {topology}</span>}
                </span>
                <span role="cell">
                  <StatusBadge status={member.status} />
                </span>
                <span role="cell" className="muted">
                  {member.groups.join(", ") || "–"}
                </span>
                <span role="cell">{member.instance_count}</span>
                {classes.map((name) => (
                  <span role="cell" key={name}>
                    <FillBar resourceClass={name} fill={memberFill(member, name)} />
                  </span>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
