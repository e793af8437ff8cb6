import type { Command } from "commander";
import type { Io } from "../context.js";
import { CliError, ExitCode } from "../exit-codes.js";
import { isDocumentFormat } from "../output/format.js";
import { renderDocument } from "../output/view.js";
import { action, examples } from "./action.js";
import { renderObject } from "./crud.js";

export function registerConfigCommands(program: Command, io: Io): void {
  const config = program
    .command("config")
    .description("Server configuration: the placement scriptlet, thresholds, limits, allocation ratios")
    .addHelpText(
      "after",
      examples("berth config show", 'berth config set instances.placement.scriptlet "$(cat placement.star)"'),
    );

  config
    .command("show")
    .description("Show the whole server config (YAML)")
    .addHelpText("after", examples("berth config show", "berth config show --format json"))
    .action(
      action(io, async (ctx) => {
        const server = await ctx.api.getServer();
        renderObject(ctx, server.config);
      }),
    );

  config
    .command("get")
    .description("Print one server config value (empty when unset)")
    .argument("<key>", "config key")
    .addHelpText(
      "after",
      examples(
        "berth config get cluster.offline_threshold",
        "berth config get instances.placement.scriptlet > placement.star",
      ),
    )
    .action(
      action(io, async (ctx, key: string) => {
        const server = await ctx.api.getServer();
        const value = server.config[key] ?? "";
        if (isDocumentFormat(ctx.format)) ctx.out(renderDocument({ [key]: value }, ctx.format));
        else ctx.io.stdout.write(value.endsWith("\n") ? value : `${value}\n`);
      }),
    );

  config
    .command("set")
    .description("Set server config keys (a scriptlet is compiled and checked by the server first)")
    .argument("<key>", "config key")
    .argument("<value>", "value")
    .argument("[more...]", "further KEY VALUE pairs")
    .addHelpText(
      "after",
      examples(
        'berth config set instances.placement.scriptlet "$(cat placement.star)"',
        "berth config set cluster.offline_threshold 60",
        "berth config set scheduler.cpu_allocation_ratio 4.0 scheduler.ram_allocation_ratio 1.5",
      ),
    )
    .action(
      action(io, async (ctx, key: string, value: string, more: string[]) => {
        if (more.length % 2 !== 0) {
          throw new CliError(
            `Missing value for "${more[more.length - 1]}": give KEY VALUE pairs`,
            ExitCode.usage,
          );
        }
        const changes: Record<string, string> = { [key]: value };
        for (let i = 0; i < more.length; i += 2) changes[more[i] as string] = more[i + 1] as string;
        await ctx.api.patchServerConfig(changes);
      }),
    );

  config
    .command("unset")
    .description("Unset a server config key (back to its default; an empty scriptlet removes it)")
    .argument("<key>", "config key")
    .addHelpText("after", examples("berth config unset instances.placement.scriptlet"))
    .action(
      action(io, async (ctx, key: string) => {
        await ctx.api.patchServerConfig({ [key]: "" });
      }),
    );
}
