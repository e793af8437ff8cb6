import type {
  Flavor,
  FlavorPut,
  FlavorsPost,
  Image,
  Profile,
  Project,
  ResourceClass,
} from "@berth/api-types";
import { parseByteSize } from "@berth/resources";
import type { Command } from "commander";
import type { Io } from "../context.js";
import { CliError, ExitCode, usageError } from "../exit-codes.js";
import { formatClassAmount } from "../output/sizes.js";
import { renderList } from "../output/view.js";
import { action, examples } from "./action.js";
import { collect, parseCount, parseKeyValues } from "./arguments.js";
import { registerConfigFamily, registerCrud, usedByColumn } from "./crud.js";
import { registerPlacementGroups } from "./placement-groups.js";
import { registerProfileDeviceCommands } from "./profile-devices.js";

/** A size flag: plain integers are in `unit` (MiB or GiB), anything else an LXD size such as 4GiB. */
export function parseSizeIn(value: string, unitBytes: number, flag: string): number {
  if (/^\d+$/.test(value)) return Number(value);
  const parsed = parseByteSize(value);
  if (!parsed.ok) throw usageError(`Invalid ${flag} "${value}": ${parsed.error.message}`);
  if (parsed.value % unitBytes !== 0) {
    throw usageError(
      `Invalid ${flag} "${value}": not a whole number of ${unitBytes === 1024 ** 2 ? "MiB" : "GiB"}`,
    );
  }
  return parsed.value / unitBytes;
}

function flavorPut(flavor: Flavor, extraSpecs: Record<string, string>): FlavorPut {
  const { name: _name, ...put } = flavor;
  return { ...put, extra_specs: extraSpecs };
}

function registerFlavors(program: Command, io: Io): void {
  const flavor = registerCrud<Flavor>(program, io, {
    name: "flavor",
    noun: "flavor",
    description: "Flavors: named sizes (vcpus, memory, disk) with Nova extra specs",
    collection: (api) => api.flavors,
    example: "m1.small",
    renamable: false,
    columns: [
      { header: "NAME", human: (f) => f.name },
      { header: "VCPUS", human: (f) => String(f.vcpus), exact: (f) => f.vcpus },
      {
        header: "MEMORY",
        human: (f) => formatClassAmount("MEMORY_MB", f.memory_mb),
        exact: (f) => f.memory_mb,
      },
      { header: "DISK", human: (f) => formatClassAmount("DISK_GB", f.disk_gb), exact: (f) => f.disk_gb },
      {
        header: "EXTRA SPECS",
        human: (f) =>
          Object.entries(f.extra_specs)
            .map(([k, v]) => `${k}=${v}`)
            .join(", "),
      },
      { header: "DESCRIPTION", human: (f) => f.description },
    ],
  });
  flavor
    .command("create")
    .description("Create a flavor")
    .argument("<name>", "flavor name")
    .requiredOption("--vcpus <n>", "virtual CPUs")
    .requiredOption("--memory <size>", "memory: MiB, or a size such as 4GiB")
    .option("--disk <size>", "root disk: GiB, or a size such as 20GiB", "0")
    .option(
      "--extra-spec <key=value>",
      "Nova extra spec, e.g. resources:CUSTOM_GPU=1 or trait:CUSTOM_SSD=required (repeatable)",
      collect,
    )
    .option("--description <text>", "description")
    .addHelpText(
      "after",
      examples(
        "berth flavor create m1.small --vcpus 1 --memory 2GiB --disk 20",
        "berth flavor create g1 --vcpus 8 --memory 32768 --extra-spec resources:CUSTOM_GPU=1",
      ),
    )
    .action(
      action(
        io,
        async (
          ctx,
          name: string,
          flags: { vcpus: string; memory: string; disk: string; extraSpec?: string[]; description?: string },
        ) => {
          const body: FlavorsPost = {
            name,
            vcpus: parseCount(flags.vcpus, "--vcpus"),
            memory_mb: parseSizeIn(flags.memory, 1024 ** 2, "--memory"),
            disk_gb: parseSizeIn(flags.disk, 1024 ** 3, "--disk"),
          };
          if (flags.extraSpec) body.extra_specs = parseKeyValues(flags.extraSpec, "--extra-spec");
          if (flags.description !== undefined) body.description = flags.description;
          await ctx.api.flavors.create(body);
          ctx.out(`Flavor ${name} created`);
        },
      ),
    );
  flavor
    .command("set")
    .description("Set extra specs of a flavor")
    .argument("<name>", "flavor name")
    .argument("<key=value...>", "extra specs")
    .addHelpText("after", examples("berth flavor set m1.small hw:cpu_policy=dedicated"))
    .action(
      action(io, async (ctx, name: string, pairs: string[]) => {
        const changes = parseKeyValues(pairs, "extra spec");
        const current = await ctx.api.flavors.get(name);
        await ctx.api.flavors.put(name, flavorPut(current, { ...current.extra_specs, ...changes }));
      }),
    );
  flavor
    .command("unset")
    .description("Remove an extra spec from a flavor")
    .argument("<name>", "flavor name")
    .argument("<key>", "extra spec key")
    .addHelpText("after", examples("berth flavor unset m1.small hw:cpu_policy"))
    .action(
      action(io, async (ctx, name: string, key: string) => {
        const current = await ctx.api.flavors.get(name);
        if (!(key in current.extra_specs))
          throw new CliError(`Flavor "${name}" has no extra spec "${key}"`, ExitCode.notFound);
        const { [key]: _removed, ...extra_specs } = current.extra_specs;
        // PUT, not PATCH: a PATCH merges maps, so it can add specs but never drop one.
        await ctx.api.flavors.put(name, flavorPut(current, extra_specs));
      }),
    );
}

function registerProfiles(program: Command, io: Io): void {
  const profile = registerConfigFamily<Profile>(
    program,
    io,
    {
      name: "profile",
      noun: "profile",
      description: "Profiles: config and devices merged into instances",
      collection: (api) => api.profiles,
      example: "web",
      renamable: true,
      columns: [
        { header: "NAME", human: (p) => p.name },
        { header: "DESCRIPTION", human: (p) => p.description },
        usedByColumn("USED BY"),
      ],
    },
    {
      configHelp: "config key (repeatable)",
      createExample: "berth profile create web -c limits.cpu=2 -c limits.memory=4GiB",
      setExample: "limits.cpu 2",
      toPut: (p) => ({ description: p.description, config: p.config, devices: p.devices }),
    },
  );
  registerProfileDeviceCommands(profile, io);
}

function registerProjects(program: Command, io: Io): void {
  registerConfigFamily<Project>(
    program,
    io,
    {
      name: "project",
      noun: "project",
      description: "Projects: limits.*, restricted and restricted.cluster.groups",
      collection: (api) => api.projects,
      example: "team-a",
      renamable: true,
      columns: [
        { header: "NAME", human: (p) => p.name },
        { header: "DESCRIPTION", human: (p) => p.description },
        {
          header: "LIMITS",
          human: (p) =>
            Object.entries(p.config)
              .filter(([k]) => k.startsWith("limits."))
              .map(([k, v]) => `${k.slice("limits.".length)}=${v}`)
              .join(", "),
        },
        usedByColumn("USED BY"),
      ],
    },
    {
      configHelp: "config key, e.g. limits.instances=10 (repeatable)",
      createExample: "berth project create team-a -c limits.instances=20 -c restricted.cluster.groups=ssd",
      setExample: "limits.instances 10",
      toPut: (p) => ({ description: p.description, config: p.config }),
    },
  );
}

function registerImages(program: Command, io: Io): void {
  const image = registerCrud<Image>(program, io, {
    name: "image",
    noun: "image",
    description: "Images and their architectures (used by the architecture filter)",
    collection: (api) => api.images,
    example: "1d7a4c1b2e3f",
    renamable: false,
    columns: [
      { header: "ALIAS", human: (i) => i.aliases.map((a) => a.name).join(",") },
      { header: "FINGERPRINT", human: (i) => i.fingerprint.slice(0, 12), exact: (i) => i.fingerprint },
      { header: "TYPE", human: (i) => i.type.toUpperCase(), exact: (i) => i.type },
      { header: "ARCHITECTURE", human: (i) => i.architecture },
      { header: "DESCRIPTION", human: (i) => i.description },
    ],
  });
  image
    .command("create")
    .alias("add")
    .description("Record an image: its fingerprint, architecture and aliases")
    .argument("<fingerprint>", "SHA-256 fingerprint (64 hex digits)")
    .requiredOption("--arch <architecture>", "architecture, e.g. x86_64")
    .option("--alias <name>", "alias (repeatable)", collect)
    .option("--vm", "a virtual-machine image")
    .option("--description <text>", "description")
    .addHelpText("after", examples("berth image create 1d7a...64 hex... --arch x86_64 --alias ubuntu/jammy"))
    .action(
      action(
        io,
        async (
          ctx,
          fingerprint: string,
          flags: { arch: string; alias?: string[]; vm?: boolean; description?: string },
        ) => {
          await ctx.api.images.create({
            fingerprint,
            architecture: flags.arch as Image["architecture"],
            type: flags.vm ? "virtual-machine" : "container",
            ...(flags.alias ? { aliases: flags.alias.map((name) => ({ name, description: "" })) } : {}),
            ...(flags.description !== undefined ? { description: flags.description } : {}),
          });
          ctx.out(`Image ${fingerprint.slice(0, 12)} created`);
        },
      ),
    );
  const alias = image
    .command("alias")
    .description("Image aliases")
    .addHelpText(
      "after",
      examples("berth image alias list", "berth image alias create ubuntu/noble FINGERPRINT"),
    );
  alias
    .command("list")
    .alias("ls")
    .description("List image aliases")
    .addHelpText("after", examples("berth image alias list"))
    .action(
      action(io, async (ctx) => {
        const rows = await ctx.api.imageAliases.list();
        ctx.out(
          renderList(
            {
              columns: [
                { header: "ALIAS", human: (a) => a.name },
                { header: "FINGERPRINT", human: (a) => a.target.slice(0, 12), exact: (a) => a.target },
                { header: "TYPE", human: (a) => a.type.toUpperCase(), exact: (a) => a.type },
                { header: "DESCRIPTION", human: (a) => a.description },
              ],
              rows,
            },
            ctx.format,
            ctx.colors,
          ),
        );
      }),
    );
  alias
    .command("create")
    .description("Point an alias at an image")
    .argument("<alias>", "alias name")
    .argument("<fingerprint>", "image fingerprint")
    .addHelpText("after", examples("berth image alias create ubuntu/noble 5e2f...64 hex..."))
    .action(
      action(
        io,
        async (ctx, name: string, target: string) =>
          void (await ctx.api.imageAliases.create({ name, target })),
      ),
    );
  alias
    .command("delete")
    .alias("rm")
    .description("Delete an alias")
    .argument("<alias>", "alias name")
    .addHelpText("after", examples("berth image alias delete ubuntu/noble"))
    .action(action(io, async (ctx, name: string) => void (await ctx.api.imageAliases.delete(name))));
}

function registerResourceClasses(program: Command, io: Io): void {
  const classes = registerCrud<ResourceClass>(program, io, {
    name: "resource-class",
    noun: "resource class",
    description: "Resource classes: the 21 standard Placement classes and CUSTOM_* ones",
    collection: (api) => api.resourceClasses,
    example: "CUSTOM_GPU",
    renamable: false,
    columns: [
      { header: "NAME", human: (c) => c.name },
      {
        header: "KIND",
        human: (c) => (c.standard ? "standard" : "custom"),
        exact: (c) => (c.standard ? "standard" : "custom"),
      },
    ],
  });
  classes
    .command("create")
    .description("Create a custom resource class (name must start with CUSTOM_)")
    .argument("<name>", "class name, e.g. CUSTOM_GPU")
    .addHelpText("after", examples("berth resource-class create CUSTOM_GPU"))
    .action(
      action(io, async (ctx, name: string) => {
        await ctx.api.resourceClasses.create({ name });
        ctx.out(`Resource class ${name} created`);
      }),
    );
}

export function registerCatalogCommands(program: Command, io: Io): void {
  registerFlavors(program, io);
  registerProfiles(program, io);
  registerProjects(program, io);
  registerImages(program, io);
  registerPlacementGroups(program, io);
  registerResourceClasses(program, io);
}
