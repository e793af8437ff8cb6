/**
 * `berth cluster rebalance --dry-run`: what the next run of automatic
 * rebalancing (Incus's `cluster.rebalance.*`) would do now, by the run's own
 * rules (threshold, batch, cooldown, live-migratable instances only, the
 * scriptlet with reason `rebalance`): the members' load scores, the moves,
 * and why the other instances of a relieved member stay.
 */
import type { AutomaticRebalancePreview } from "@berth/api-types";
import { automaticRebalanceGroupText, automaticRebalanceSettingsText } from "@berth/client/node";
import type { CommandContext } from "../context.js";
import { isDocumentFormat } from "../output/format.js";
import { type Column, renderDocument, renderList } from "../output/view.js";

type Move = AutomaticRebalancePreview["moves"][number];
type Stayed = AutomaticRebalancePreview["stayed"][number];

const moveColumns: Column<Move>[] = [
  { header: "INSTANCE", human: (m) => m.instance },
  { header: "PROJECT", human: (m) => m.project },
  { header: "FROM", human: (m) => `${m.from} (${m.from_score})`, exact: (m) => m.from },
  {
    header: "TO",
    human: (m, c) => c.cyan(`${m.to} (${m.to_score_before} -> ${m.to_score_after})`),
    exact: (m) => m.to,
  },
];

const stayedColumns: Column<Stayed>[] = [
  { header: "INSTANCE", human: (s) => s.instance },
  { header: "PROJECT", human: (s) => s.project },
  { header: "MEMBER", human: (s) => s.member },
  { header: "STAYS BECAUSE", human: (s) => s.message, exact: (s) => s.reason },
];

export async function showAutomaticRebalance(ctx: CommandContext): Promise<void> {
  const preview = await ctx.api.rebalanceAutomaticPreview();
  if (isDocumentFormat(ctx.format)) {
    ctx.out(renderDocument(preview, ctx.format as "json" | "yaml"));
    return;
  }
  if (ctx.format === "csv") {
    ctx.out(renderList({ columns: moveColumns, rows: preview.moves }, ctx.format, ctx.colors));
    return;
  }
  ctx.out(automaticRebalanceSettingsText(preview));
  for (const group of preview.groups) ctx.out(automaticRebalanceGroupText(group, preview.threshold));
  if (preview.moves.length > 0)
    ctx.out(renderList({ columns: moveColumns, rows: preview.moves }, ctx.format, ctx.colors));
  if (preview.stayed.length > 0)
    ctx.out(renderList({ columns: stayedColumns, rows: preview.stayed }, ctx.format, ctx.colors));
  ctx.out(
    preview.moves.length === 0
      ? "The next automatic run moves nothing."
      : `The next automatic run moves ${preview.moves.length} instance(s).`,
  );
}
