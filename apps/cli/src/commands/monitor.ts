import { type BerthEvent, watchEvents } from "@berth/client/node";
import type { Command } from "commander";
import type { CommandContext, Io } from "../context.js";
import { usageError } from "../exit-codes.js";
import { toYaml } from "../output/yaml.js";
import { action, examples } from "./action.js";

const EVENT_TYPES = ["lifecycle", "logging", "operation"];

/** `key=value` pairs of an event's context, for the one-line view. */
function contextText(context: unknown): string {
  if (context === null || typeof context !== "object") return "";
  return Object.entries(context as Record<string, unknown>)
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(" ");
}

/** One line per event: time, type, then what happened. */
export function eventLine(event: BerthEvent, ctx: Pick<CommandContext, "colors">): string {
  const c = ctx.colors;
  const m = event.metadata;
  const project = event.project !== "" && event.project !== "default" ? ` project=${event.project}` : "";
  let what: string;
  if (event.type === "lifecycle") {
    what = `${c.cyan(String(m.action))} ${String(m.source)} ${contextText(m.context)}`;
  } else if (event.type === "logging") {
    what = `${String(m.level).toUpperCase()} ${String(m.message)} ${contextText(m.context)}`;
  } else {
    const failed = m.err !== undefined && m.err !== "" ? `: ${String(m.err)}` : "";
    what = `${String(m.description)} ${String(m.status)}${failed} ${String(m.id)}`;
  }
  return `${event.timestamp} ${c.bold(event.type.padEnd(9))} ${what.trimEnd()}${project}`;
}

async function monitor(
  ctx: CommandContext,
  options: { type?: string[]; allProjects?: boolean },
): Promise<void> {
  const types = options.type ?? [];
  for (const type of types)
    if (!EVENT_TYPES.includes(type))
      throw usageError(`Unknown event type "${type}": use ${EVENT_TYPES.join(", ")}`);
  const project = ctx.project;
  const stream = watchEvents(
    ctx.api.endpoint,
    { types, ...(project !== undefined ? { project } : {}), allProjects: options.allProjects === true },
    (event) => {
      if (ctx.format === "json") ctx.out(JSON.stringify(event));
      else if (ctx.format === "yaml") ctx.out(`---\n${toYaml(event)}`);
      else ctx.out(eventLine(event, ctx));
    },
  );
  const stop = () => stream.close();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    await stream.closed;
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}

export function registerMonitorCommands(program: Command, io: Io): void {
  program
    .command("monitor")
    .description("Show berthd's events live: placements, moves, evacuations, scriptlet log lines, operations")
    .option("--type <type...>", `event types to show: ${EVENT_TYPES.join(", ")} (default: all)`)
    .option("--all-projects", "events of every project (admins)")
    .addHelpText(
      "after",
      examples(
        "berth monitor",
        "berth monitor --type lifecycle",
        "berth monitor --type logging --format json",
      ),
    )
    .action(action(io, monitor));
}
