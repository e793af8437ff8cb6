import type {
  ClusterMember,
  ClusterMemberState,
  ClusterMembersPost,
  RebalancePlan,
  Resources,
} from "@berth/api-types";
import type { BerthApi } from "@berth/client/node";
import type { Command } from "commander";
import type { CommandContext, Io } from "../context.js";
import { CliError, ExitCode, usageError } from "../exit-codes.js";
import { usageBar } from "../output/bars.js";
import { isDocumentFormat } from "../output/format.js";
import { formatClassAmount } from "../output/sizes.js";
import { type Column, renderDocument, renderList } from "../output/view.js";
import { action, examples } from "./action.js";
import { completeArguments, memberNames } from "./argument-names.js";
import { collect, parseKeyValues, readDocument } from "./arguments.js";
import { showAutomaticRebalance } from "./automatic-rebalance.js";
import { registerCapacityCommand } from "./capacity.js";
import { registerGroupCommands } from "./groups.js";
import { registerInventoryCommands } from "./inventory.js";
import { mapLimit } from "./map-limit.js";
import { type ClassUsage, memberUsage, orderClasses } from "./member-usage.js";
import { confirm } from "./prompt.js";

interface MemberRow {
  member: ClusterMember;
  usage: Record<string, ClassUsage>;
}

function statusText(status: string, ctx: CommandContext): string {
  const c = ctx.colors;
  return status === "Online"
    ? c.green("ONLINE")
    : status === "Evacuated"
      ? c.yellow("EVACUATED")
      : c.red(status.toUpperCase());
}

/** A class's fill: a bar and percentage with used/capacity (sizes human-readable) in tables, exact numbers in csv. */
function usageColumn(resourceClass: string): Column<MemberRow> {
  return {
    header: resourceClass,
    human: (row, colors) => {
      const u = row.usage[resourceClass];
      if (!u) return "-";
      const taken = u.used + u.forthcoming;
      return `${usageBar(taken, u.capacity, colors)} ${formatClassAmount(resourceClass, taken)}/${formatClassAmount(resourceClass, u.capacity)}`;
    },
    exact: (row) => {
      const u = row.usage[resourceClass];
      return u ? `${u.used + u.forthcoming}/${u.capacity}` : "";
    },
  };
}

export function memberColumns(classes: string[], ctx: CommandContext): Column<MemberRow>[] {
  return [
    { header: "NAME", human: (r) => r.member.server_name },
    { header: "STATUS", human: (r) => statusText(r.member.status, ctx), exact: (r) => r.member.status },
    { header: "ARCH", human: (r) => r.member.architecture || "-", exact: (r) => r.member.architecture },
    { header: "DOMAIN", human: (r) => r.member.failure_domain || "-", exact: (r) => r.member.failure_domain },
    {
      header: "GROUPS",
      human: (r) => r.member.groups.join(",") || "-",
      exact: (r) => r.member.groups.join(","),
    },
    ...classes.map(usageColumn),
  ];
}

async function listMembers(ctx: CommandContext, classFilter: string[] | undefined): Promise<void> {
  const members = await ctx.api.members.list();
  const rows: MemberRow[] = await mapLimit(members, 16, async (member) => ({
    member,
    usage: await memberUsage(ctx.api, member.server_name),
  }));
  const classes = orderClasses(rows.flatMap((row) => Object.keys(row.usage))).filter(
    (c) => classFilter === undefined || classFilter.includes(c),
  );
  const document = rows.map((row) => ({ ...row.member, usage: row.usage }));
  ctx.out(renderList({ columns: memberColumns(classes, ctx), rows, document }, ctx.format, ctx.colors));
}

async function showMember(ctx: CommandContext, name: string): Promise<void> {
  const [member, usage] = await Promise.all([ctx.api.members.get(name), memberUsage(ctx.api, name)]);
  if (isDocumentFormat(ctx.format)) {
    ctx.out(renderDocument({ ...member, usage }, ctx.format));
    return;
  }
  if (ctx.format === "table" || ctx.format === "compact") {
    ctx.out(renderDocument({ ...member, usage }, "yaml"));
    return;
  }
  ctx.out(
    renderList(
      { columns: memberColumns(orderClasses(Object.keys(usage)), ctx), rows: [{ member, usage }] },
      ctx.format,
      ctx.colors,
    ),
  );
}

const planColumns: Column<RebalancePlan["moves"][number]>[] = [
  { header: "INSTANCE", human: (m) => m.instance },
  { header: "PROJECT", human: (m) => m.project },
  { header: "FROM", human: (m) => m.from },
  { header: "TO", human: (m, c) => c.cyan(m.to), exact: (m) => m.to },
  { header: "GAIN", human: (m) => m.gain.toFixed(3), exact: (m) => m.gain },
];

async function rebalance(ctx: CommandContext, flags: { yes?: boolean; dryRun?: boolean }): Promise<void> {
  if (flags.dryRun) {
    if (flags.yes) throw usageError("--dry-run and --yes cannot be combined");
    return showAutomaticRebalance(ctx);
  }
  const plan = await ctx.api.rebalancePlan();
  const document = isDocumentFormat(ctx.format);
  if (plan.moves.length === 0) {
    if (document) ctx.out(renderDocument(plan, ctx.format as "json" | "yaml"));
    else ctx.out("The cluster is balanced: nothing to move.");
    return;
  }
  if (document) ctx.out(renderDocument(plan, ctx.format as "json" | "yaml"));
  else {
    ctx.out(renderList({ columns: planColumns, rows: plan.moves }, ctx.format, ctx.colors));
    ctx.out(
      `${plan.moves.length} move(s); imbalance score ${plan.score_before.toFixed(3)} -> ${plan.score_after.toFixed(3)}`,
    );
  }
  if (!flags.yes) {
    if (ctx.io.stdin.isTTY !== true) {
      throw usageError(
        "Refusing to apply the plan without confirmation: stdin is not a terminal; pass --yes to apply",
      );
    }
    if (!(await confirm(ctx, "Apply these moves?")))
      throw new CliError("Aborted: nothing was moved", ExitCode.failed);
  }
  const applied = (await ctx.api.rebalanceApply()) as RebalancePlan;
  if (document) ctx.out(renderDocument(applied, ctx.format as "json" | "yaml"));
  else ctx.out(`Applied ${applied.moves?.length ?? plan.moves.length} move(s).`);
}

interface AddFlags {
  url?: string;
  arch?: string;
  group?: string[];
  failureDomain?: string;
  description?: string;
  trait?: string[];
  config?: string[];
}

export function registerClusterCommands(program: Command, io: Io): void {
  const cluster = program
    .command("cluster")
    .description("Manage cluster members, their inventories and groups")
    .addHelpText(
      "after",
      examples(
        "berth cluster list",
        "berth cluster add node1 --arch x86_64",
        "berth cluster inventory set node1 VCPU 32",
      ),
    );

  cluster
    .command("list")
    .alias("ls")
    .description("List members with their fill per resource class")
    .option("--class <name>", "only show these classes (repeatable)", collect)
    .addHelpText(
      "after",
      examples(
        "berth cluster list",
        "berth cluster list --class VCPU --class MEMORY_MB",
        "berth cluster list --format json",
      ),
    )
    .action(action(io, async (ctx, flags: { class?: string[] }) => listMembers(ctx, flags.class)));

  completeArguments(
    cluster
      .command("show")
      .description("Show one member with its inventories and usage (YAML)")
      .argument("<member>", "member name")
      .addHelpText("after", examples("berth cluster show node1", "berth cluster show node1 --format json"))
      .action(action(io, async (ctx, name: string) => showMember(ctx, name))),
    memberNames,
  );

  cluster
    .command("add")
    .description("Register a member (it is schedulable once it reports a heartbeat)")
    .argument("<member>", "member name")
    .option("--url <url>", "the member's address")
    .option("--arch <architecture>", "architecture, e.g. x86_64 or aarch64")
    .option("-g, --group <name>", "member group (repeatable)", collect)
    .option("--failure-domain <name>", "failure domain (rack, zone)")
    .option("--description <text>", "description")
    .option(
      "--trait <name>",
      "Placement trait: a standard one (HW_CPU_X86_AVX2) or CUSTOM_*, created if missing (repeatable)",
      collect,
    )
    .option(
      "-c, --config <key=value>",
      "member config: scheduler.instance, topology.<name> or user.* (repeatable)",
      collect,
    )
    .addHelpText(
      "after",
      examples(
        "berth cluster add node1 --arch x86_64 --failure-domain rack1",
        "berth cluster add node2 -c topology.rack=C1 -c topology.room=3",
        "berth cluster add gpu1 -g gpu --trait CUSTOM_GPU",
      ),
    )
    .action(
      action(io, async (ctx, name: string, flags: AddFlags) => {
        const body: ClusterMembersPost = { server_name: name };
        if (flags.url !== undefined) body.url = flags.url;
        if (flags.arch !== undefined) body.architecture = flags.arch as ClusterMembersPost["architecture"];
        if (flags.group) body.groups = flags.group;
        if (flags.failureDomain !== undefined) body.failure_domain = flags.failureDomain;
        if (flags.description !== undefined) body.description = flags.description;
        if (flags.trait) body.traits = flags.trait;
        if (flags.config) body.config = parseKeyValues(flags.config, "--config");
        await ctx.api.members.create(body);
        if (!isDocumentFormat(ctx.format)) ctx.out(`Member ${name} added`);
      }),
    );

  completeArguments(
    cluster
      .command("remove")
      .alias("rm")
      .description("Remove a member (refused while instances are placed on it)")
      .argument("<member>", "member name")
      .addHelpText("after", examples("berth cluster remove node3"))
      .action(
        action(io, async (ctx, name: string) => {
          await ctx.api.members.delete(name);
          ctx.out(`Member ${name} removed`);
        }),
      ),
    memberNames,
  );

  completeArguments(
    cluster
      .command("rename")
      .description("Rename a member (only while it hosts no instances)")
      .argument("<member>", "member name")
      .argument("<new-name>", "new name")
      .addHelpText("after", examples("berth cluster rename node9 node4"))
      .action(
        action(io, async (ctx, name: string, newName: string) => {
          await ctx.api.members.rename(name, newName);
        }),
      ),
    memberNames,
    undefined,
  );

  completeArguments(
    cluster
      .command("set")
      .description("Set a member config key (scheduler.instance, topology.<name>, user.*)")
      .argument("<member>", "member name")
      .argument("<key>", "config key")
      .argument("<value>", "value")
      .addHelpText(
        "after",
        examples(
          "berth cluster set node1 scheduler.instance manual",
          "berth cluster set node1 topology.rack C1",
          "berth cluster set node1 user.owner ops",
        ),
      )
      .action(
        action(io, async (ctx, name: string, key: string, value: string) => {
          await ctx.api.members.patch(name, { config: { [key]: value } });
        }),
      ),
    memberNames,
  );

  completeArguments(
    cluster
      .command("unset")
      .description("Unset a member config key")
      .argument("<member>", "member name")
      .argument("<key>", "config key")
      .addHelpText("after", examples("berth cluster unset node1 scheduler.instance"))
      .action(
        action(io, async (ctx, name: string, key: string) => {
          await ctx.api.members.patch(name, { config: { [key]: "" } });
        }),
      ),
    memberNames,
  );

  completeArguments(
    cluster
      .command("report")
      .description("Report a member's state (its heartbeat) and/or resources, as a member agent does")
      .argument("<member>", "member name")
      .option("--state <file>", "ClusterMemberState as YAML or JSON (sysinfo, storage_pools)")
      .option("--resources <file>", "Resources as YAML or JSON (LXD api.Resources)")
      .addHelpText(
        "after",
        examples(
          "berth cluster report node1 --state state.yaml",
          "berth cluster report node1 --resources resources.json",
        ),
      )
      .action(
        action(io, async (ctx, name: string, flags: { state?: string; resources?: string }) => {
          if (flags.state === undefined && flags.resources === undefined)
            throw usageError("Give --state FILE, --resources FILE, or both");
          // The files go to berthd as read: it validates them and names any bad field.
          if (flags.resources !== undefined) {
            const resources = readDocument(flags.resources, "resources file") as Resources;
            await ctx.api.putMemberResources(name, resources);
          }
          if (flags.state !== undefined) {
            await ctx.api.putMemberState(name, readDocument(flags.state, "state file") as ClusterMemberState);
          }
        }),
      ),
    memberNames,
  );

  // LXD's two member state actions: the same request shape, a different verb.
  const stateActions = [
    {
      verb: "evacuate",
      description: "Move every instance off a member and stop placing on it",
      run: (api: BerthApi, name: string) => api.evacuateMember(name),
      done: "evacuated",
    },
    {
      verb: "restore",
      description: "Make an evacuated member schedulable again",
      run: (api: BerthApi, name: string) => api.restoreMember(name),
      done: "restored",
    },
  ];
  for (const { verb, description, run, done } of stateActions) {
    completeArguments(
      cluster
        .command(verb)
        .description(description)
        .argument("<member>", "member name")
        .addHelpText("after", examples(`berth cluster ${verb} node2`))
        .action(
          action(io, async (ctx, name: string) => {
            await run(ctx.api, name);
            ctx.out(`Member ${name} ${done}`);
          }),
        ),
      memberNames,
    );
  }

  cluster
    .command("rebalance")
    .description(
      "Show the moves that would even out the cluster now (Ganeti hbal's greedy plan), then apply them after confirmation; with --dry-run, show instead what the next automatic run (cluster.rebalance.*, Incus's rules) would move",
    )
    .option("-y, --yes", "apply the plan without asking")
    .option(
      "--dry-run",
      "show what the next automatic rebalancing run would do (threshold, batch, cooldown, live-migratable instances only, the scriptlet with reason rebalance); nothing moves",
    )
    .addHelpText(
      "after",
      examples(
        "berth cluster rebalance",
        "berth cluster rebalance --yes",
        "berth config set cluster.rebalance.interval 15   # automatic runs every 15 minutes (0: off)",
        "berth cluster rebalance --dry-run",
        "berth cluster rebalance --dry-run --format yaml",
      ),
    )
    .action(action(io, async (ctx, flags: { yes?: boolean; dryRun?: boolean }) => rebalance(ctx, flags)));

  registerCapacityCommand(cluster, io);
  registerInventoryCommands(cluster, io);
  registerGroupCommands(cluster, io);
}
