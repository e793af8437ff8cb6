import type { ClusterMemberFull } from "@berth/api-types";
import { useEffect, useRef, useState } from "react";
import { classLabel, percent } from "../format/amounts.js";
import { memberFill } from "./fill.js";
import type { Section } from "./grouping.js";
import {
  BANDS,
  colourOf,
  describeHeatMap,
  EVACUATED_COLOUR,
  layoutCells,
  memberAt,
  NO_INVENTORY_COLOUR,
  OFFLINE_COLOUR,
} from "./heatmap.js";

interface Props {
  sections: readonly Section[];
  members: readonly ClusterMemberFull[];
  resourceClass: string;
  onPick(member: ClusterMemberFull): void;
}

/** The container's width, followed as the window resizes. */
function useWidth(element: HTMLElement | null): number {
  const [width, setWidth] = useState(800);
  useEffect(() => {
    if (element === null) return;
    const observer = new ResizeObserver((entries) => setWidth(Math.floor(entries[0]!.contentRect.width)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return width;
}

/**
 * Fill of one class across every member, one cell each, sections by the
 * list's grouping: 1,000 members in one screen, 10,000 in a few. Drawn on
 * a canvas (one element, not 10,000). Pointing at a cell names the member;
 * clicking selects it in the list below, which is the keyboard's and the
 * screen reader's way to the same facts (the canvas says what it shows).
 */
export function HeatMap({ sections, members, resourceClass, onPick }: Props) {
  const [box, setBox] = useState<HTMLElement | null>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const width = useWidth(box);
  const layout = layoutCells(sections, width);
  const [hover, setHover] = useState<{ member: ClusterMemberFull; x: number; y: number } | null>(null);

  useEffect(() => {
    const element = canvas.current;
    if (element === null) return;
    const scale = window.devicePixelRatio || 1;
    element.width = Math.max(1, width * scale);
    element.height = Math.max(1, layout.height * scale);
    const context = element.getContext("2d");
    if (context === null) return;
    context.setTransform(scale, 0, 0, scale, 0, 0);
    context.clearRect(0, 0, width, layout.height);
    context.font = "12px system-ui, sans-serif";
    const step = layout.cell + layout.gap;
    sections.forEach((section, index) => {
      const placed = layout.sections[index]!;
      if (layout.titleHeight > 0) {
        context.fillStyle = "#1d2733";
        context.fillText(`${section.title} (${section.members.length})`, 0, placed.top - 5);
      }
      section.members.forEach((member, at) => {
        const x = (at % layout.perRow) * step;
        const y = placed.top + Math.floor(at / layout.perRow) * step;
        context.fillStyle = colourOf(member, resourceClass);
        context.fillRect(x, y, layout.cell, layout.cell);
        context.strokeStyle = "#9aa7b4";
        context.lineWidth = 0.5;
        context.strokeRect(x + 0.25, y + 0.25, layout.cell - 0.5, layout.cell - 0.5);
      });
    });
  }, [sections, resourceClass, width, layout]);

  const label = classLabel(resourceClass);
  const pointed = (event: React.MouseEvent<HTMLCanvasElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    return memberAt(sections, layout, event.clientX - rect.left, event.clientY - rect.top);
  };
  const hoverFill = hover !== null ? memberFill(hover.member, resourceClass) : undefined;
  return (
    <figure className="heatmap" ref={setBox}>
      <canvas
        ref={canvas}
        role="img"
        aria-label={describeHeatMap(members, resourceClass, label)}
        style={{ width: `${width}px`, height: `${layout.height}px` }}
        onMouseMove={(event) => {
          const member = pointed(event);
          const rect = event.currentTarget.getBoundingClientRect();
          setHover(
            member === undefined
              ? null
              : { member, x: event.clientX - rect.left, y: event.clientY - rect.top },
          );
        }}
        onMouseLeave={() => setHover(null)}
        onClick={(event) => {
          const member = pointed(event);
          if (member !== undefined) onPick(member);
        }}
      />
      {hover !== null ? (
        <div className="heatmap-tip" style={{ left: hover.x + 12, top: hover.y + 12 }} aria-hidden="true">
          <strong>{hover.member.server_name}</strong> {hover.member.status}
          {hoverFill !== undefined ? ` · ${label} ${percent(hoverFill.fraction)}` : ` · no ${label}`}
        </div>
      ) : null}
      <figcaption className="legend">
        {label} fill:{" "}
        {BANDS.map((band) => (
          <span key={band.label} className="legend-item">
            <span className="swatch" style={{ background: band.colour }} aria-hidden="true" />
            {band.label}
          </span>
        ))}
        <span className="legend-item">
          <span className="swatch" style={{ background: OFFLINE_COLOUR }} aria-hidden="true" />
          offline
        </span>
        <span className="legend-item">
          <span className="swatch" style={{ background: EVACUATED_COLOUR }} aria-hidden="true" />
          evacuated
        </span>
        <span className="legend-item">
          <span className="swatch" style={{ background: NO_INVENTORY_COLOUR }} aria-hidden="true" />
          no inventory
        </span>
      </figcaption>
    </figure>
  );
}
