/**
 * `berth placement-group`: LXD 6.6's placement groups, in `lxc
 * placement-group`'s key=value style (`create pg1 policy=spread
 * rigor=strict topology=rack`), with `set`/`unset` of one config key.
 * `--policy`/`--rigor` are Berth's earlier flags, still taken: the server
 * merges them into the config and refuses a disagreement.
 */
import { PLACEMENT_POLICIES, PLACEMENT_RIGORS, type PlacementGroup } from "@berth/api-types";
import type { Command } from "commander";
import type { Io } from "../context.js";
import { usageError } from "../exit-codes.js";
import { action, examples } from "./action.js";
import { collect, parseKeyValues } from "./arguments.js";
import { type CrudFamily, registerConfigVerbs, registerCrud, usedByColumn } from "./crud.js";

const FAMILY: CrudFamily<PlacementGroup> = {
  name: "placement-group",
  noun: "placement group",
  description:
    "Placement groups: spread or pack instances that set config placement.group (per member, or per rack with topology=rack)",
  collection: (api) => api.placementGroups,
  example: "db",
  renamable: true,
  columns: [
    { header: "NAME", human: (g) => g.name },
    { header: "POLICY", human: (g) => g.config.policy ?? "" },
    { header: "RIGOR", human: (g) => g.config.rigor ?? "" },
    { header: "TOPOLOGY", human: (g) => g.config.topology ?? "member" },
    usedByColumn("INSTANCES"),
    { header: "DESCRIPTION", human: (g) => g.description },
  ],
};

/** A flag's value as one of the wire's values, or a usage error naming the flag. */
function oneOf<T extends string>(values: readonly T[], value: string, flag: string): T {
  const found = values.find((candidate) => candidate === value);
  if (found === undefined) throw usageError(`Invalid ${flag} "${value}": expected ${values.join(" or ")}`);
  return found;
}

interface CreateFlags {
  config?: string[];
  policy?: string;
  rigor?: string;
  description?: string;
}

export function registerPlacementGroups(program: Command, io: Io): void {
  const group = registerCrud<PlacementGroup>(program, io, FAMILY);
  group
    .command("create")
    .description(
      "Create a placement group: policy (spread|compact) and rigor (strict|permissive) are required; topology=KEY counts per value of the members' topology.KEY (failure_domain: their failure domain) instead of per member",
    )
    .argument("<name>", "group name")
    .argument("[key=value...]", "config: policy, rigor, topology, user.*")
    .option("-c, --config <key=value>", "config key (repeatable), as the key=value arguments", collect)
    .option(`--policy <${PLACEMENT_POLICIES.join("|")}>`, "Berth's earlier flag for config policy")
    .option(
      `--rigor <${PLACEMENT_RIGORS.join("|")}>`,
      "Berth's earlier flag for config rigor (default strict)",
    )
    .option("--description <text>", "description")
    .addHelpText(
      "after",
      examples(
        "berth placement-group create web policy=spread rigor=strict topology=rack",
        "berth placement-group create db policy=compact rigor=permissive user.team=dba",
        "berth placement-group create db --policy spread",
        "berth init ubuntu/jammy web1 -c placement.group=web",
      ),
    )
    .action(
      action(io, async (ctx, name: string, pairs: string[], flags: CreateFlags) => {
        const given = [...pairs, ...(flags.config ?? [])];
        const config = given.length > 0 ? parseKeyValues(given, "config") : undefined;
        await ctx.api.placementGroups.create({
          name,
          ...(config !== undefined ? { config } : {}),
          ...(flags.policy !== undefined
            ? { policy: oneOf(PLACEMENT_POLICIES, flags.policy, "--policy") }
            : {}),
          ...(flags.rigor !== undefined ? { rigor: oneOf(PLACEMENT_RIGORS, flags.rigor, "--rigor") } : {}),
          ...(flags.description !== undefined ? { description: flags.description } : {}),
        });
        ctx.out(`Placement group ${name} created`);
      }),
    );
  registerConfigVerbs(
    group,
    io,
    FAMILY,
    (g) => ({ description: g.description, config: g.config }),
    "topology rack",
  );
}
