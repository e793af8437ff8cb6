/**
 * The heat map's arithmetic: which colour a fill gets, how the cells are
 * laid out in sections, and the sentence that tells a screen reader what
 * the picture shows. Drawing is HeatMap.tsx's.
 */
import type { ClusterMemberFull } from "@berth/api-types";
import { memberFill } from "./fill.js";
import type { Section } from "./grouping.js";

/** Fill bands, each with its colour (light to dark: readable for colour-blind eyes as lightness). */
export const BANDS = [
  { upTo: 0.25, colour: "#d7ecf5", label: "under 25%" },
  { upTo: 0.5, colour: "#8fc6dd", label: "25–50%" },
  { upTo: 0.75, colour: "#3f8fbf", label: "50–75%" },
  { upTo: 0.9, colour: "#1f5f99", label: "75–90%" },
  { upTo: Number.POSITIVE_INFINITY, colour: "#0b2447", label: "90% and over" },
] as const;

export const OFFLINE_COLOUR = "#b0413e";
export const EVACUATED_COLOUR = "#8a8a8a";
export const NO_INVENTORY_COLOUR = "#ffffff";

export function bandOf(fraction: number): number {
  for (let index = 0; index < BANDS.length; index++) if (fraction < BANDS[index]!.upTo) return index;
  return BANDS.length - 1;
}

/** A member's cell colour for `resourceClass`: its status first, then its fill band. */
export function colourOf(member: ClusterMemberFull, resourceClass: string): string {
  if (member.status === "Offline") return OFFLINE_COLOUR;
  if (member.status !== "Online") return EVACUATED_COLOUR;
  const fill = memberFill(member, resourceClass);
  if (fill === undefined || Number.isNaN(fill.fraction)) return NO_INVENTORY_COLOUR;
  return BANDS[bandOf(fill.fraction)]!.colour;
}

export interface CellLayout {
  /** Cell side and gap in CSS pixels. */
  cell: number;
  gap: number;
  perRow: number;
  /** Height of a section's title line. */
  titleHeight: number;
  /** Each section's first row offset, and each member's cell position. */
  sections: { title: string; top: number; rows: number }[];
  height: number;
}

/**
 * Cells big enough to point at (8–18 px), smaller as members grow, so
 * 1,000 members fit a screen and 10,000 a few: each section starts on its
 * own row under its title.
 */
export function layoutCells(sections: readonly Section[], width: number): CellLayout {
  const total = sections.reduce((sum, section) => sum + section.members.length, 0);
  const cell = total <= 200 ? 18 : total <= 1000 ? 12 : total <= 4000 ? 9 : 6;
  const gap = cell >= 12 ? 2 : 1;
  const perRow = Math.max(1, Math.floor((width + gap) / (cell + gap)));
  const titleHeight = sections.length > 1 ? 18 : 0;
  let top = 0;
  const placed: CellLayout["sections"] = [];
  for (const section of sections) {
    const rows = Math.ceil(section.members.length / perRow);
    placed.push({ title: section.title, top: top + titleHeight, rows });
    top += titleHeight + rows * (cell + gap) + (titleHeight > 0 ? 6 : 0);
  }
  return { cell, gap, perRow, titleHeight, sections: placed, height: Math.max(top, cell) };
}

/** The member under a point of the heat map, if any. */
export function memberAt(
  sections: readonly Section[],
  layout: CellLayout,
  x: number,
  y: number,
): ClusterMemberFull | undefined {
  const step = layout.cell + layout.gap;
  const column = Math.floor(x / step);
  if (column < 0 || column >= layout.perRow || x - column * step > layout.cell) return undefined;
  for (let index = 0; index < sections.length; index++) {
    const placed = layout.sections[index]!;
    const row = Math.floor((y - placed.top) / step);
    if (y < placed.top || row >= placed.rows) continue;
    if (y - placed.top - row * step > layout.cell) return undefined;
    return sections[index]!.members[row * layout.perRow + column];
  }
  return undefined;
}

/** "vCPU fill of 1,000 members: 600 under 25%, …; 3 offline, 1 evacuated." */
export function describeHeatMap(
  members: readonly ClusterMemberFull[],
  resourceClass: string,
  label: string,
): string {
  const counts: number[] = BANDS.map(() => 0);
  let offline = 0;
  let unavailable = 0;
  let without = 0;
  for (const member of members) {
    if (member.status === "Offline") offline += 1;
    else if (member.status !== "Online") unavailable += 1;
    else {
      const fill = memberFill(member, resourceClass);
      if (fill === undefined || Number.isNaN(fill.fraction)) without += 1;
      else counts[bandOf(fill.fraction)]! += 1;
    }
  }
  const parts = BANDS.map((band, index) => `${counts[index]} ${band.label}`);
  const extra = [
    `${offline} offline`,
    `${unavailable} evacuated`,
    ...(without > 0 ? [`${without} without ${label}`] : []),
  ];
  return `${label} fill of ${members.length.toLocaleString("en-US")} members: ${parts.join(", ")}; ${extra.join(", ")}.`;
}
