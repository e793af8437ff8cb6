import type { Instance, InstancesPost } from "@berth/api-types";
import type { Command } from "commander";
import type { CommandContext, Io } from "../context.js";
import { usageError } from "../exit-codes.js";
import { isDocumentFormat } from "../output/format.js";
import { renderDocument, renderFields, renderList } from "../output/view.js";
import { action, examples } from "./action.js";
import { withErrorPrefix } from "./api-errors.js";
import { completeArguments, instanceNames } from "./argument-names.js";
import { collect } from "./arguments.js";
import { type CreateFlags, createBody } from "./instance-body.js";
import { instanceColumns, instanceFields } from "./instance-views.js";

/** What an instance is and where it may go: the flags `init`, `launch`, `reserve` and `cluster capacity` share. */
export function addShapeOptions(command: Command): Command {
  return command
    .option("--target <member|@group>", "place on this member, or on a member of this group")
    .option("--flavor <name>", "size the instance with a stored flavor")
    .option("-c, --config <key=value>", "instance config key (repeatable)", collect)
    .option("-p, --profile <name>", "apply a profile (repeatable; default: the default profile)", collect)
    .option("--no-profiles", "apply no profile at all")
    .option("--vm", "a virtual machine instead of a container")
    .option(
      "-t, --instance-type <type>",
      "LXD custom instance type cN-mN (CPUs, GiB), e.g. c2-m4 or c0.5-m0.5 (named cloud types such as t2.micro are not carried)",
    );
}

/** The placement flags of `init`, `launch` and `reserve`. */
export function addCreateOptions(command: Command): Command {
  return addShapeOptions(command)
    .option("--description <text>", "description")
    .option("-e, --ephemeral", "ephemeral instance");
}

async function create(
  ctx: CommandContext,
  body: InstancesPost,
  flags: CreateFlags,
  verb: string,
): Promise<void> {
  const document = isDocumentFormat(ctx.format);
  if (!document) ctx.out(body.name !== undefined ? `${verb} ${body.name}` : `${verb} the instance`);
  const options = flags.target !== undefined ? { target: flags.target } : {};
  const result = await withErrorPrefix("Failed instance creation", () =>
    ctx.api.createInstance(body, options),
  );
  const instance = result.metadata;
  if (document) {
    ctx.out(renderDocument(instance, ctx.format as "json" | "yaml"));
    return;
  }
  if (body.name === undefined && instance.name !== "") ctx.out(`Instance name is: ${instance.name}`);
  if (instance.forthcoming) {
    // An unnamed reservation is known by its UUID only; name it at commit time.
    const what = instance.name === "" ? "capacity" : instance.name;
    ctx.out(`Reserved ${what} on ${ctx.colors.cyan(instance.location)} (uuid ${instance.uuid})`);
  } else {
    ctx.out(`Placed ${instance.name} on ${ctx.colors.cyan(instance.location)}`);
  }
}

/** Filters of `berth list`: `KEY=VALUE` matches a field or config key, a bare word a name or UUID prefix. */
export function matchesFilters(instance: Instance, filters: string[]): boolean {
  return filters.every((filter) => {
    const at = filter.indexOf("=");
    if (at < 0) return instance.name.startsWith(filter) || instance.uuid.startsWith(filter);
    const key = filter.slice(0, at);
    const value = filter.slice(at + 1);
    const field = (instance as unknown as Record<string, unknown>)[key];
    if (typeof field === "string" || typeof field === "boolean") return String(field) === value;
    return instance.expanded_config[key] === value;
  });
}

export function registerInstanceCommands(program: Command, io: Io): void {
  program
    .command("list")
    .alias("ls")
    .description("List instances and reservations of the project")
    .argument(
      "[filter...]",
      "name or UUID prefix, or KEY=VALUE on a field (location, type, status, flavor) or config key",
    )
    .addHelpText(
      "after",
      examples("berth list", "berth list web", "berth list location=node1", "berth list --format csv"),
    )
    .action(
      action(io, async (ctx, filters: string[]) => {
        const instances = (await ctx.api.instances.list()).filter((i) => matchesFilters(i, filters));
        ctx.out(renderList({ columns: instanceColumns, rows: instances }, ctx.format, ctx.colors));
      }),
    );

  addCreateOptions(
    program
      .command("init")
      .alias("create")
      .description("Create an instance: the server places it on a member")
      .argument("<image>", "image alias, fingerprint, or SERVER:ALIAS (e.g. images:ubuntu/jammy)")
      .argument("[name]", "instance name (the server picks one when absent)"),
  )
    .addHelpText(
      "after",
      examples(
        "berth init images:ubuntu/jammy web1",
        "berth init ubuntu/jammy db1 --flavor m1.large --target @ssd",
        "berth init ubuntu/jammy c1 -c limits.cpu=2 -c limits.memory=4GiB",
      ),
    )
    .action(
      action(io, async (ctx, image: string, name: string | undefined, flags: CreateFlags) => {
        await create(ctx, createBody(image, name, flags), flags, "Creating");
      }),
    );

  addCreateOptions(
    program
      .command("launch")
      .description("Create an instance and mark it to start (placement is the same as init)")
      .argument("<image>", "image alias, fingerprint, or SERVER:ALIAS")
      .argument("[name]", "instance name"),
  )
    .addHelpText(
      "after",
      examples("berth launch images:ubuntu/jammy web2", "berth launch ubuntu/jammy vm1 --vm -t c2-m4"),
    )
    .action(
      action(io, async (ctx, image: string, name: string | undefined, flags: CreateFlags) => {
        await create(ctx, { ...createBody(image, name, flags), start: true }, flags, "Launching");
      }),
    );

  addCreateOptions(
    program
      .command("reserve")
      .description("Reserve capacity for a forthcoming instance (Ganeti reservations); commit it later")
      .argument(
        "[name]",
        "name of the future instance (optional: a reservation is also addressed by its UUID)",
      )
      .option("--image <image>", "image the instance will use"),
  )
    .addHelpText(
      "after",
      examples("berth reserve db2 --flavor m1.large", "berth reserve --flavor m1.small --target @rack1"),
    )
    .action(
      action(io, async (ctx, name: string | undefined, flags: CreateFlags & { image?: string }) => {
        await create(ctx, { ...createBody(flags.image, name, flags), forthcoming: true }, flags, "Reserving");
      }),
    );

  completeArguments(
    program
      .command("commit")
      .description("Turn a reservation into a real instance (never fails for capacity)")
      .argument("<reservation>", "reservation name or UUID")
      .option("--name <name>", "name for a reservation made without one")
      .addHelpText("after", examples("berth commit db2", "berth commit 5f0c... --name db3"))
      .action(
        action(io, async (ctx, reservation: string, flags: { name?: string }) => {
          const instance = await ctx.api.commitReservation(
            reservation,
            flags.name !== undefined ? { name: flags.name } : {},
          );
          if (isDocumentFormat(ctx.format)) ctx.out(renderDocument(instance, ctx.format));
          else ctx.out(`Committed ${instance.name} on ${ctx.colors.cyan(instance.location)}`);
        }),
      ),
    instanceNames,
  );

  completeArguments(
    program
      .command("delete")
      .alias("rm")
      .description("Delete instances or reservations (their resources are freed)")
      .argument("<name...>", "instance names or reservation UUIDs")
      .addHelpText("after", examples("berth delete web1", "berth delete web1 web2 5f0c2b1e-..."))
      .action(
        action(io, async (ctx, names: string[]) => {
          for (const name of names) await ctx.api.instances.delete(name);
        }),
      ),
    instanceNames,
  );

  completeArguments(
    program
      .command("move")
      .alias("mv")
      .description("Move an instance to another member or group, or rename it")
      .argument("<name>", "instance name")
      .argument("[new-name]", "rename to this name (instead of moving)")
      .option("--target <member|@group>", "where to move it (a group lets the placement pipeline choose)")
      .addHelpText(
        "after",
        examples(
          "berth move web1 --target node2",
          "berth move web1 --target @rack2",
          "berth move web1 web-a",
        ),
      )
      .action(
        action(io, async (ctx, name: string, newName: string | undefined, flags: { target?: string }) => {
          if (newName !== undefined && flags.target !== undefined) {
            throw usageError("Give either a new name (rename) or --target (move), not both");
          }
          if (newName !== undefined) {
            await ctx.api.instances.rename(name, newName);
            return;
          }
          if (flags.target === undefined) throw usageError("Missing --target: where should the instance go?");
          const target = flags.target;
          const instance = await withErrorPrefix("Failed instance move", () =>
            ctx.api.moveInstance(name, target),
          );
          if (isDocumentFormat(ctx.format)) ctx.out(renderDocument(instance, ctx.format));
          else ctx.out(`Moved ${instance.name} to ${ctx.colors.cyan(instance.location)}`);
        }),
      ),
    instanceNames,
    undefined,
  );

  completeArguments(
    program
      .command("info")
      .description("Show an instance: its member, status, flavor, profiles and config")
      .argument("<name>", "instance name or reservation UUID")
      .addHelpText("after", examples("berth info web1", "berth info web1 --format yaml"))
      .action(
        action(io, async (ctx, name: string) => {
          const instance = await ctx.api.instances.get(name);
          if (isDocumentFormat(ctx.format)) ctx.out(renderDocument(instance, ctx.format));
          else ctx.out(renderFields(instanceFields(instance), ctx.colors));
        }),
      ),
    instanceNames,
  );
}
