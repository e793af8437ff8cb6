import type { Command } from "commander";
import { CommandContext, type Io } from "../context.js";
import type { OutputFormat } from "../output/format.js";

/**
 * Wraps a command's handler: commander calls it with the positional
 * arguments, the command's options and the command itself; the handler gets
 * a `CommandContext` first, then the same arguments and options.
 */
export function action<Args extends unknown[]>(
  io: Io,
  run: (ctx: CommandContext, ...args: Args) => Promise<void>,
  defaultFormat: OutputFormat = "table",
): (...all: unknown[]) => Promise<void> {
  return async (...all: unknown[]) => {
    const command = all[all.length - 1] as Command;
    const ctx = new CommandContext(io, command, defaultFormat);
    await run(ctx, ...(all.slice(0, -1) as Args));
  };
}

/** Help text appended to a command: examples, one per line. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  ${line}`).join("\n")}\n`;
}
