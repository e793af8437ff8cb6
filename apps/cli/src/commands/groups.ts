import type { ClusterGroup } from "@berth/api-types";
import type { Command } from "commander";
import type { Io } from "../context.js";
import { isDocumentFormat } from "../output/format.js";
import { type Column, renderList } from "../output/view.js";
import { action, examples } from "./action.js";
import { completeArguments, groupNames, memberNames } from "./argument-names.js";
import { renderObject } from "./crud.js";

const columns: Column<ClusterGroup>[] = [
  { header: "NAME", human: (g) => g.name },
  { header: "DESCRIPTION", human: (g) => g.description },
  { header: "MEMBERS", human: (g) => g.members.join(","), exact: (g) => g.members.join(",") },
];

export function registerGroupCommands(cluster: Command, io: Io): void {
  const group = cluster
    .command("group")
    .description("Member groups, the targets of --target @GROUP")
    .addHelpText(
      "after",
      examples("berth cluster group create ssd node1 node2", "berth init ubuntu/jammy db1 --target @ssd"),
    );

  group
    .command("list")
    .alias("ls")
    .description("List member groups")
    .addHelpText("after", examples("berth cluster group list"))
    .action(
      action(io, async (ctx) =>
        ctx.out(renderList({ columns, rows: await ctx.api.groups.list() }, ctx.format, ctx.colors)),
      ),
    );

  completeArguments(
    group
      .command("show")
      .description("Show a member group")
      .argument("<group>", "group name")
      .addHelpText("after", examples("berth cluster group show ssd"))
      .action(action(io, async (ctx, name: string) => renderObject(ctx, await ctx.api.groups.get(name)))),
    groupNames,
  );

  completeArguments(
    group
      .command("create")
      .description("Create a member group")
      .argument("<group>", "group name")
      .argument("[members...]", "members to put in it")
      .option("--description <text>", "description")
      .addHelpText("after", examples("berth cluster group create ssd node1 node2"))
      .action(
        action(io, async (ctx, name: string, members: string[], flags: { description?: string }) => {
          await ctx.api.groups.create({
            name,
            members,
            ...(flags.description !== undefined ? { description: flags.description } : {}),
          });
          if (!isDocumentFormat(ctx.format)) ctx.out(`Group ${name} created`);
        }),
      ),
    undefined,
    memberNames,
  );

  completeArguments(
    group
      .command("assign")
      .description("Set the groups of a member (replaces its current groups)")
      .argument("<member>", "member name")
      .argument("<groups>", "comma-separated group names")
      .addHelpText("after", examples("berth cluster group assign node3 ssd,rack2"))
      .action(
        action(io, async (ctx, member: string, groups: string) => {
          await ctx.api.members.patch(member, { groups: groups.split(",").filter((g) => g !== "") });
        }),
      ),
    memberNames,
    { source: groupNames, commaList: true },
  );

  completeArguments(
    group
      .command("rename")
      .description("Rename a member group")
      .argument("<group>", "group name")
      .argument("<new-name>", "new name")
      .addHelpText("after", examples("berth cluster group rename ssd fast"))
      .action(
        action(io, async (ctx, name: string, newName: string) => {
          await ctx.api.groups.rename(name, newName);
        }),
      ),
    groupNames,
    undefined,
  );

  completeArguments(
    group
      .command("delete")
      .alias("rm")
      .description("Delete a member group")
      .argument("<group>", "group name")
      .addHelpText("after", examples("berth cluster group delete ssd"))
      .action(action(io, async (ctx, name: string) => ctx.api.groups.delete(name).then(() => undefined))),
    groupNames,
  );
}
