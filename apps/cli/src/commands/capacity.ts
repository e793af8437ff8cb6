import type { ClusterCapacity } from "@berth/api-types";
import type { Command } from "commander";
import type { CommandContext, Io } from "../context.js";
import { isDocumentFormat } from "../output/format.js";
import { formatClassAmount } from "../output/sizes.js";
import { type Column, renderDocument, renderList } from "../output/view.js";
import { action, examples } from "./action.js";
import { collect } from "./arguments.js";
import { type CreateFlags, createBody } from "./instance-body.js";
import { addShapeOptions } from "./instances.js";

interface CapacityFlags extends CreateFlags {
  /** `--tier`, repeated: flavors to count too. */
  tier?: string[];
  all?: boolean;
}

type MemberRow = ClusterCapacity["members"][number];
type FlavorRow = ClusterCapacity["flavors"][number];

const memberColumns: Column<MemberRow>[] = [
  { header: "MEMBER", human: (row) => row.name },
  {
    header: "MORE",
    human: (row, c) => (row.instances > 0 ? c.green(String(row.instances)) : "0"),
    exact: (row) => row.instances,
  },
  { header: "LIMITED BY", human: (row) => row.limited_by || "-", exact: (row) => row.limited_by },
];

const flavorColumns: Column<FlavorRow>[] = [
  { header: "FLAVOR", human: (row) => row.name },
  { header: "MORE", human: (row) => String(row.instances), exact: (row) => row.instances },
  { header: "LIMITED BY", human: (row) => row.limited_by || "-", exact: (row) => row.limited_by },
];

function resourcesText(resources: Record<string, number>): string {
  return Object.entries(resources)
    .map(([resourceClass, amount]) => `${resourceClass}=${formatClassAmount(resourceClass, amount)}`)
    .join(" ");
}

/** The answer for a terminal: the total, the members, the project's limits, the largest that fits. */
function renderAnswer(ctx: CommandContext, answer: ClusterCapacity, all: boolean): void {
  const c = ctx.colors;
  const why = answer.limited_by === "" ? "" : ` (limited by ${answer.limited_by})`;
  ctx.out(`${c.bold(String(answer.instances))} more instance(s) of this shape fit${why}`);
  const rows = all ? answer.members : answer.members.filter((row) => row.instances > 0);
  if (rows.length > 0) ctx.out(renderList({ columns: memberColumns, rows }, ctx.format, c));
  const hidden = answer.members.length - rows.length;
  if (hidden > 0) ctx.out(`${hidden} member(s) take none (--all lists them with why)`);
  for (const limit of answer.project.limits) {
    const more = limit.instances === null ? "not counted by this shape" : `${limit.instances} more`;
    ctx.out(`Project ${answer.project.name}: ${limit.key} ${limit.used}/${limit.max} used, ${more}`);
  }
  if (answer.largest.location !== null) {
    ctx.out(
      `Largest that fits: ${answer.largest.multiple}x this shape on ${c.cyan(answer.largest.location)} (${resourcesText(answer.largest.resources)})`,
    );
  }
  if (answer.flavors.length > 0) {
    ctx.out(renderList({ columns: flavorColumns, rows: answer.flavors }, ctx.format, c));
    ctx.out(`Largest flavor that fits: ${answer.largest_flavor ?? "none"}`);
  }
  if (answer.scriptlet_ignored) {
    ctx.out(
      c.yellow(
        "A placement scriptlet is configured: the count assumes the default order, not the scriptlet's choices",
      ),
    );
  }
}

async function capacity(ctx: CommandContext, flags: CapacityFlags): Promise<void> {
  const body = createBody(undefined, undefined, flags);
  const answer = await ctx.api.clusterCapacity(
    { ...body, ...(flags.tier !== undefined ? { flavors: flags.tier } : {}) },
    flags.target !== undefined ? { target: flags.target } : {},
  );
  if (isDocumentFormat(ctx.format)) ctx.out(renderDocument(answer, ctx.format as "json" | "yaml"));
  else renderAnswer(ctx, answer, flags.all === true);
}

/** `berth cluster capacity`: Ganeti hspace's question, answered by Berth's placement rules. */
export function registerCapacityCommand(cluster: Command, io: Io): void {
  addShapeOptions(cluster.command("capacity"))
    .description(
      "How many more instances of this shape fit now, on which members, and what runs out first (nothing is created)",
    )
    .option(
      "--tier <flavor>",
      "also count this flavor and report the largest of them that fits, hspace's tiered allocation (repeatable)",
      collect,
    )
    .option("--all", "list every member, also those that take none, with why")
    .addHelpText(
      "after",
      examples(
        "berth cluster capacity --flavor m1.small",
        "berth cluster capacity -c limits.cpu=2 -c limits.memory=4GiB --target @rack1",
        "berth cluster capacity --flavor m1.small --tier m1.xlarge --tier m1.large --tier m1.medium",
        "berth --project team cluster capacity -p web --format json",
      ),
    )
    .action(action(io, async (ctx, flags: CapacityFlags) => capacity(ctx, flags)));
}
