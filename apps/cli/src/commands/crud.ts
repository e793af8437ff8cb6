import type { BerthApi, Collection } from "@berth/client/node";
import type { Command } from "commander";
import type { CommandContext, Io } from "../context.js";
import { CliError, ExitCode } from "../exit-codes.js";
import { type Column, renderDocument, renderList } from "../output/view.js";
import { action, examples } from "./action.js";
import { completeArguments, type NameSource } from "./argument-names.js";
import { collect, parseKeyValues } from "./arguments.js";

// Bodies differ per collection; the shared verbs only pass them through.
// biome-ignore lint/suspicious/noExplicitAny: each family narrows T itself; the helper never reads bodies.
type AnyCollection<T> = Collection<T, any, any, any>;

export interface CrudFamily<T> {
  /** Command name, e.g. "profile". */
  name: string;
  /** Noun in help texts, e.g. "profile". */
  noun: string;
  description: string;
  collection: (api: BerthApi) => AnyCollection<T>;
  columns: Column<T>[];
  /** An example name for help texts. */
  example: string;
  renamable: boolean;
}

/** `show` prints the object as YAML (lxc habit), or JSON with `--format json`. */
export function renderObject(ctx: CommandContext, value: unknown): void {
  ctx.out(renderDocument(value, ctx.format === "json" ? "json" : "yaml"));
}

/** list / show / delete (/ rename) for an LXD-style collection; returns the family command for its create/set verbs. */
export function registerCrud<T>(program: Command, io: Io, family: CrudFamily<T>): Command {
  const parent = program
    .command(family.name)
    .description(family.description)
    .addHelpText(
      "after",
      examples(`berth ${family.name} list`, `berth ${family.name} show ${family.example}`),
    );
  const { noun, example } = family;
  const existing = familyNames(family);

  parent
    .command("list")
    .alias("ls")
    .description(`List ${noun}s`)
    .addHelpText("after", examples(`berth ${family.name} list`, `berth ${family.name} list --format yaml`))
    .action(
      action(io, async (ctx) => {
        const rows = await family.collection(ctx.api).list();
        ctx.out(renderList({ columns: family.columns, rows }, ctx.format, ctx.colors));
      }),
    );

  completeArguments(
    parent
      .command("show")
      .description(`Show a ${noun} (YAML)`)
      .argument("<name>", `${noun} name`)
      .addHelpText("after", examples(`berth ${family.name} show ${example}`))
      .action(
        action(io, async (ctx, name: string) =>
          renderObject(ctx, await family.collection(ctx.api).get(name)),
        ),
      ),
    existing,
  );

  completeArguments(
    parent
      .command("delete")
      .alias("rm")
      .description(`Delete a ${noun}`)
      .argument("<name>", `${noun} name`)
      .addHelpText("after", examples(`berth ${family.name} delete ${example}`))
      .action(
        action(io, async (ctx, name: string) => {
          await family.collection(ctx.api).delete(name);
        }),
      ),
    existing,
  );

  if (family.renamable) {
    completeArguments(
      parent
        .command("rename")
        .alias("mv")
        .description(`Rename a ${noun}`)
        .argument("<name>", `${noun} name`)
        .argument("<new-name>", "new name")
        .addHelpText("after", examples(`berth ${family.name} rename ${example} ${example}2`))
        .action(
          action(io, async (ctx, name: string, newName: string) => {
            await family.collection(ctx.api).rename(name, newName);
          }),
        ),
      existing,
      undefined,
    );
  }
  return parent;
}

/**
 * `set NAME KEY VALUE` / `unset NAME KEY` on an object's `config` map: read,
 * change the one key, write the whole object back (PUT), as `lxc profile set` does.
 */
export function registerConfigVerbs<T extends { config: Record<string, string> }>(
  parent: Command,
  io: Io,
  family: CrudFamily<T>,
  toPut: (value: T) => unknown,
  setExample: string,
): void {
  completeArguments(
    parent
      .command("set")
      .description(`Set a ${family.noun} config key`)
      .argument("<name>", `${family.noun} name`)
      .argument("<key>", "config key")
      .argument("<value>", "value")
      .addHelpText("after", examples(`berth ${family.name} set ${family.example} ${setExample}`))
      .action(
        action(io, async (ctx, name: string, key: string, value: string) => {
          const collection = family.collection(ctx.api);
          const current = await collection.get(name);
          await collection.put(name, toPut({ ...current, config: { ...current.config, [key]: value } }));
        }),
      ),
    familyNames(family),
  );
  completeArguments(
    parent
      .command("unset")
      .description(`Unset a ${family.noun} config key`)
      .argument("<name>", `${family.noun} name`)
      .argument("<key>", "config key")
      .addHelpText(
        "after",
        examples(`berth ${family.name} unset ${family.example} ${setExample.split(" ")[0]}`),
      )
      .action(
        action(io, async (ctx, name: string, key: string) => {
          const collection = family.collection(ctx.api);
          const current = await collection.get(name);
          if (!(key in current.config))
            throw new CliError(`${family.noun} "${name}" has no config key "${key}"`, ExitCode.notFound);
          const { [key]: _removed, ...config } = current.config;
          await collection.put(name, toPut({ ...current, config }));
        }),
      ),
    familyNames(family),
  );
}

/**
 * `create NAME [-c KEY=VALUE]... [--description TEXT]` for the families whose create body
 * is only a name, a config map and a description (profiles, projects).
 */
function registerConfigCreate<T>(
  parent: Command,
  io: Io,
  family: CrudFamily<T>,
  configHelp: string,
  example: string,
): void {
  parent
    .command("create")
    .description(`Create a ${family.noun}`)
    .argument("<name>", `${family.noun} name`)
    .option("-c, --config <key=value>", configHelp, collect)
    .option("--description <text>", "description")
    .addHelpText("after", examples(example))
    .action(
      action(io, async (ctx, name: string, flags: { config?: string[]; description?: string }) => {
        const body: { name: string; config?: Record<string, string>; description?: string } = { name };
        if (flags.config) body.config = parseKeyValues(flags.config, "--config");
        if (flags.description !== undefined) body.description = flags.description;
        await family.collection(ctx.api).create(body);
        ctx.out(`${family.noun.charAt(0).toUpperCase()}${family.noun.slice(1)} ${name} created`);
      }),
    );
}

/** What a config family adds to the CRUD verbs: help texts and the object's editable part. */
export interface ConfigVerbs<T> {
  /** Help of `create`'s `-c KEY=VALUE`. */
  configHelp: string;
  createExample: string;
  /** `KEY VALUE` for the `set` example; its key is the `unset` example. */
  setExample: string;
  /** The PUT body of an object: its editable fields. */
  toPut: (value: T) => unknown;
}

/**
 * A family of objects made of a name, a description and a `config` map
 * (profiles, projects): list/show/delete/rename, `create` with `-c`, and
 * `set`/`unset` of one config key. Returns the family command for more verbs.
 */
export function registerConfigFamily<T extends { config: Record<string, string> }>(
  program: Command,
  io: Io,
  family: CrudFamily<T>,
  verbs: ConfigVerbs<T>,
): Command {
  const parent = registerCrud(program, io, family);
  registerConfigCreate(parent, io, family, verbs.configHelp, verbs.createExample);
  registerConfigVerbs(parent, io, family, verbs.toPut, verbs.setExample);
  return parent;
}

/** A `USED BY`-style column: how many instances use the object, from its LXD `used_by` URLs. */
export function usedByColumn<T extends { used_by: string[] }>(header: string): Column<T> {
  return { header, human: (row) => String(row.used_by.length), exact: (row) => row.used_by.length };
}

/** Completion source: the names of a family's existing objects. */
function familyNames<T>(family: CrudFamily<T>): NameSource {
  return (api) => family.collection(api).names();
}
