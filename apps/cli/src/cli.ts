import { Command, CommanderError, Option } from "commander";
import { registerBulkCommands } from "./commands/bulk.js";
import { registerCatalogCommands } from "./commands/catalog.js";
import { registerClusterCommands } from "./commands/cluster.js";
import { registerCompletionCommands } from "./commands/completion.js";
import { registerInstanceCommands } from "./commands/instances.js";
import { registerMonitorCommands } from "./commands/monitor.js";
import { registerRemoteCommands } from "./commands/remotes.js";
import { registerScriptletCommands } from "./commands/scriptlet.js";
import { registerConfigCommands } from "./commands/server-config.js";
import type { Io } from "./context.js";
import { EXIT_CODE_HELP, ExitCode, exitCodeFor } from "./exit-codes.js";
import { OUTPUT_FORMATS } from "./output/format.js";
import { CLI_VERSION } from "./version.js";

const ROOT_HELP = `
Connection (first match wins):
  --remote URL|NAME      a URL, or a remote from "berth remote list" (token: --token, $BERTH_TOKEN)
  --socket PATH          a Unix socket
  $BERTH_SOCKET          a Unix socket
  default remote         "local": berthd's default socket ($XDG_RUNTIME_DIR/berth/berth.sock,
                         ~/.berth/berth.sock, or /run/berth/berth.sock)

Examples:
  berth cluster list
  berth init images:ubuntu/jammy web1 --flavor m1.small
  berth config set instances.placement.scriptlet "$(cat placement.star)"
  berth bulk create -f batch.yaml
  berth --remote https://berth.example.net:8443 --token $TOKEN list --format json

${EXIT_CODE_HELP}
`;

/** The whole command tree; `io` carries the streams and environment, so tests can run it in-process. */
export function buildProgram(io: Io): Command {
  const program = new Command("berth")
    .description("Berth command-line client: place instances on a cluster (lxc habits)")
    .version(CLI_VERSION, "--version", "print the version")
    .addOption(new Option("--remote <url|name>", "server URL or remote name"))
    .addOption(new Option("--token <token>", "bearer token for TCP remotes (or $BERTH_TOKEN)"))
    .addOption(new Option("--socket <path>", "Unix socket of berthd"))
    .addOption(new Option("--ca <file>", "PEM CA (or self-signed certificate) of an https remote"))
    .addOption(
      new Option("--project <name>", 'project (or $BERTH_PROJECT; default: the remote\'s, else "default")'),
    )
    .addOption(new Option("--format <format>", "output format").choices(OUTPUT_FORMATS))
    .showSuggestionAfterError(true)
    .configureHelp({ sortSubcommands: false, showGlobalOptions: true })
    .addHelpText("after", ROOT_HELP)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    });

  registerInstanceCommands(program, io);
  registerClusterCommands(program, io);
  registerConfigCommands(program, io);
  registerCatalogCommands(program, io);
  registerBulkCommands(program, io);
  registerScriptletCommands(program, io);
  registerMonitorCommands(program, io);
  registerRemoteCommands(program, io);
  registerCompletionCommands(program, io);

  // Every subcommand inherits the error handling, so usage errors anywhere exit with code 2.
  const inherit = (command: Command): void => {
    for (const sub of command.commands) {
      sub
        .exitOverride()
        .showSuggestionAfterError(true)
        .configureOutput({
          writeOut: (text) => io.stdout.write(text),
          writeErr: (text) => io.stderr.write(text),
        });
      sub.configureHelp({ showGlobalOptions: true });
      inherit(sub);
    }
  };
  inherit(program);
  return program;
}

/** Runs `berth ARGS...` and returns the exit code; errors are printed as `Error: message` on stderr. */
export async function runCli(args: string[], io: Io): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync(args, { from: "user" });
    return ExitCode.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end through here too, with code 0; commander already printed the message.
      if (
        error.exitCode === 0 ||
        error.code === "commander.helpDisplayed" ||
        error.code === "commander.version"
      )
        return ExitCode.ok;
      // A group command without its subcommand shows its help on stderr: a usage error.
      return ExitCode.usage;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`Error: ${message}\n`);
    return exitCodeFor(error);
  }
}
