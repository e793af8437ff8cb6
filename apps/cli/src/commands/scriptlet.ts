import type { DryRunResult } from "@berth/api-types";
import type { Command } from "commander";
import type { CommandContext, Io } from "../context.js";
import { CliError, ExitCode } from "../exit-codes.js";
import { isDocumentFormat } from "../output/format.js";
import { renderDocument } from "../output/view.js";
import { action, examples } from "./action.js";
import { readDocument, readTextFile } from "./arguments.js";
import { parseBatch } from "./bulk.js";

/** The API extension of a berthd that honours `X-Berth-Scriptlet` on dry runs. */
export const DRY_RUN_SOURCE_EXTENSION = "scriptlet_dry_run_source";

/**
 * The engine's scriptlet host, loaded only for `scriptlet check`/`test` so other
 * commands never pay for the Starlark interpreter at start-up.
 */
async function loadValidator(): Promise<{ validate(source: string): void }> {
  const { createScriptletHost } = await import("@berth/engine");
  return createScriptletHost();
}

/** `instance_placement:3:5: msg` -> `placement.star:3:5: msg`, so editors can jump to the position. */
export function locateInFile(message: string, path: string): string {
  return message.replace(/^instance_placement:(\d+:\d+:)/, `${path}:$1`);
}

/** Compiles the file, runs its top level and checks `instance_placement`'s signature, all locally. */
export async function checkScriptlet(path: string): Promise<{ ok: true } | { ok: false; message: string }> {
  const source = readTextFile(path, "scriptlet");
  const validator = await loadValidator();
  try {
    validator.validate(source);
    return { ok: true };
  } catch (error) {
    // EngineError kind "invalid" carries the LXD-style text; anything else is a bug worth surfacing as is.
    if (error instanceof Error && (error as { kind?: unknown }).kind === "invalid") {
      return { ok: false, message: locateInFile(error.message, path) };
    }
    throw error;
  }
}

function renderDryRun(result: DryRunResult, ctx: CommandContext): string {
  const c = ctx.colors;
  const d = result.decision;
  const decision =
    d.outcome === "placed"
      ? `${c.green("placed")} on ${c.cyan(d.location)} (decided by ${d.decided_by})`
      : `${c.red("rejected")} (HTTP ${d.error_code}): ${d.error}`;
  const lines = [
    `${c.bold("Decision:")}   ${decision}`,
    `${c.bold("Candidates:")} ${result.candidates.length === 0 ? "(none)" : result.candidates.join(", ")}`,
    `${c.bold("Scriptlet:")}  ${result.scriptlet_ran ? "ran" : "did not run"}`,
    `${c.bold("Cost:")}       ${result.cost.steps} steps, ${result.cost.time_ms.toFixed(2)} ms`,
    `${c.bold("Log:")}${result.log.length === 0 ? "        (empty)" : ""}`,
  ];
  const paint = { info: c.blue, warn: c.yellow, error: c.red };
  for (const line of result.log)
    lines.push(`  ${paint[line.level](line.level.toUpperCase().padEnd(5))} ${line.message}`);
  return `${lines.join("\n")}\n`;
}

export function registerScriptletCommands(program: Command, io: Io): void {
  const scriptlet = program
    .command("scriptlet")
    .description("Placement scriptlets (Starlark, LXD/Incus instances.placement.scriptlet)")
    .addHelpText(
      "after",
      examples(
        "berth scriptlet check placement.star",
        "berth scriptlet test placement.star --instance spec.yaml",
      ),
    );

  scriptlet
    .command("check")
    .description("Compile a scriptlet and check instance_placement's signature, locally (no server needed)")
    .argument("<file>", "scriptlet file")
    .addHelpText(
      "after",
      `${examples("berth scriptlet check placement.star")}\nErrors print as FILE:LINE:COL: message and exit with code 1.\n`,
    )
    .action(
      action(io, async (ctx, path: string) => {
        const result = await checkScriptlet(path);
        if (!result.ok) throw new CliError(result.message, ExitCode.failed);
        ctx.out(`${path}: ${ctx.colors.green("OK")}`);
      }),
    );

  scriptlet
    .command("test")
    .description(
      "Dry-run a scriptlet file against the live cluster: decision, candidates, log lines and cost",
    )
    .argument("<file>", "scriptlet file (not saved on the server)")
    .requiredOption("--instance <spec>", "instance create body as YAML or JSON (image: shorthand allowed)")
    .option("--target <@group>", "restrict candidates to a group (a member target skips the scriptlet)")
    .addHelpText(
      "after",
      `${examples("berth scriptlet test placement.star --instance spec.yaml", "berth scriptlet test placement.star --instance spec.yaml --format json")}
Spec file:
  name: web1
  image: ubuntu/jammy
  config: {limits.cpu: "2"}
A rejection is a result, not a failure: the command exits 0 and shows it.
`,
    )
    .action(
      action(io, async (ctx, path: string, flags: { instance: string; target?: string }) => {
        const checked = await checkScriptlet(path);
        if (!checked.ok) throw new CliError(checked.message, ExitCode.failed);
        // parseBatch refuses an empty list: there is exactly one spec here.
        const body = parseBatch([readDocument(flags.instance, "instance spec")], flags.instance)[0]!;
        const source = readTextFile(path, "scriptlet");
        // A server that ignored the header would dry-run its configured scriptlet instead: ask first.
        const server = await ctx.api.getServer();
        if (!server.api_extensions.includes(DRY_RUN_SOURCE_EXTENSION)) {
          throw new CliError(
            `The server cannot dry-run an unsaved scriptlet (API extension ${DRY_RUN_SOURCE_EXTENSION} missing); try it on a test server with "berth config set instances.placement.scriptlet"`,
            ExitCode.failed,
          );
        }
        const result = await ctx.api.dryRun(body, {
          project: ctx.project,
          ...(flags.target !== undefined ? { target: flags.target } : {}),
          scriptletSource: source,
        });
        if (isDocumentFormat(ctx.format)) ctx.out(renderDocument(result, ctx.format));
        else ctx.out(renderDryRun(result, ctx));
      }),
    );
}
