import { resolve } from "node:path";
import type { Command } from "commander";
import { addressProblem, LOCAL_REMOTE, loadConfig, saveConfig } from "../config/config-file.js";
import type { Io } from "../context.js";
import { CliError, ExitCode, usageError } from "../exit-codes.js";
import { renderList } from "../output/view.js";
import { action, examples } from "./action.js";

interface RemoteRow {
  name: string;
  addr: string;
  token: boolean;
  project: string;
  isDefault: boolean;
}

export function registerRemoteCommands(program: Command, io: Io): void {
  const remote = program
    .command("remote")
    .description(
      "Servers known by name, like lxc remotes (stored in $BERTH_CONFIG_DIR or ~/.config/berth/config.yml)",
    )
    .addHelpText(
      "after",
      examples(
        "berth remote add prod https://berth.example.net:8443 --token $TOKEN",
        "berth remote switch prod",
      ),
    );

  remote
    .command("add")
    .description("Add a remote; --token, --project and --ca are stored with it")
    .argument("<name>", "remote name")
    .argument("<addr>", "https://HOST:PORT, http://HOST:PORT or unix:///PATH")
    .addHelpText(
      "after",
      examples(
        "berth remote add prod https://berth.example.net:8443 --token $TOKEN",
        "berth remote add lab unix:///run/berth/berth.sock",
      ),
    )
    .action(
      action(io, async (ctx, name: string, addr: string) => {
        // --token and --project are the global flags: here they are stored with the remote.
        const flags = ctx.connectionFlags;
        const config = loadConfig(ctx.io.env);
        if (config.remotes[name]) throw new CliError(`Remote "${name}" already exists`, ExitCode.conflict);
        const problem = addressProblem(addr);
        if (problem) throw usageError(`Invalid address: ${problem}`);
        config.remotes[name] = {
          addr,
          ...(flags.token ? { token: flags.token } : {}),
          ...(flags.project ? { project: flags.project } : {}),
          // Stored absolute: the remote is used from any directory later.
          ...(flags.ca ? { ca: resolve(flags.ca) } : {}),
        };
        saveConfig(config, ctx.io.env);
      }),
    );

  remote
    .command("list")
    .alias("ls")
    .description("List remotes (the default one is marked)")
    .addHelpText("after", examples("berth remote list"))
    .action(
      action(io, async (ctx) => {
        const config = loadConfig(ctx.io.env);
        const rows: RemoteRow[] = Object.entries(config.remotes)
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([name, entry]) => ({
            name,
            addr: entry.addr,
            token: entry.token !== undefined,
            project: entry.project ?? "",
            isDefault: name === config.defaultRemote,
          }));
        ctx.out(
          renderList(
            {
              columns: [
                {
                  header: "NAME",
                  human: (r, c) => (r.isDefault ? c.bold(`${r.name} (current)`) : r.name),
                  exact: (r) => r.name,
                },
                { header: "ADDRESS", human: (r) => r.addr },
                { header: "TOKEN", human: (r) => (r.token ? "yes" : "no"), exact: (r) => r.token },
                { header: "PROJECT", human: (r) => r.project },
              ],
              rows,
              // Tokens never leave the config file through the CLI.
              document: rows.map(({ name, addr, token, project, isDefault }) => ({
                name,
                addr,
                token,
                project,
                default: isDefault,
              })),
            },
            ctx.format,
            ctx.colors,
          ),
        );
      }),
    );

  remote
    .command("remove")
    .alias("rm")
    .description("Remove a remote")
    .argument("<name>", "remote name")
    .addHelpText("after", examples("berth remote remove prod"))
    .action(
      action(io, async (ctx, name: string) => {
        const config = loadConfig(ctx.io.env);
        if (!config.remotes[name]) throw new CliError(`Remote "${name}" not found`, ExitCode.notFound);
        if (name === config.defaultRemote)
          throw new CliError(`Remote "${name}" is the default; switch to another first`, ExitCode.conflict);
        if (name === LOCAL_REMOTE)
          throw new CliError(`Remote "${LOCAL_REMOTE}" cannot be removed`, ExitCode.conflict);
        delete config.remotes[name];
        saveConfig(config, ctx.io.env);
      }),
    );

  remote
    .command("switch")
    .description("Make a remote the default")
    .argument("<name>", "remote name")
    .addHelpText("after", examples("berth remote switch prod", "berth remote switch local"))
    .action(
      action(io, async (ctx, name: string) => {
        const config = loadConfig(ctx.io.env);
        if (!config.remotes[name]) throw new CliError(`Remote "${name}" not found`, ExitCode.notFound);
        config.defaultRemote = name;
        saveConfig(config, ctx.io.env);
      }),
    );

  remote
    .command("get-default")
    .description("Print the default remote's name")
    .addHelpText("after", examples("berth remote get-default"))
    .action(action(io, async (ctx) => ctx.out(loadConfig(ctx.io.env).defaultRemote)));
}
