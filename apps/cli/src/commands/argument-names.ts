/**
 * Which server names each positional argument of a command takes, declared
 * where the command is registered, so `berth __complete` can offer existing
 * instance, member, group and catalog names for any argument that names one.
 */
import type { BerthApi } from "@berth/client/node";
import type { Command } from "commander";

/** Lists the candidate names from the server. */
export type NameSource = (api: BerthApi) => Promise<string[]>;

export interface ArgumentNames {
  source: NameSource;
  /** The argument is a comma-separated list ("ssd,rack2"): complete its last item. */
  commaList?: boolean;
}

const declared = new WeakMap<Command, (ArgumentNames | undefined)[]>();

/**
 * Declares the names of `command`'s positional arguments, in order; `undefined`
 * for an argument that takes a new name or free text. A variadic last argument
 * (`<name...>`) uses the last entry for every further word.
 */
export function completeArguments(
  command: Command,
  ...positions: (ArgumentNames | NameSource | undefined)[]
): Command {
  declared.set(
    command,
    positions.map((p) => (typeof p === "function" ? { source: p } : p)),
  );
  return command;
}

/** The names argument number `index` (0-based) of `command` takes, if declared. */
export function argumentNames(command: Command, index: number): ArgumentNames | undefined {
  const positions = declared.get(command);
  if (positions === undefined) return undefined;
  if (index < positions.length) return positions[index];
  const last = command.registeredArguments[command.registeredArguments.length - 1];
  return last?.variadic && positions.length === command.registeredArguments.length
    ? positions[positions.length - 1]
    : undefined;
}

export const instanceNames: NameSource = async (api) =>
  (await api.instances.names()).filter((name) => name !== "");
export const memberNames: NameSource = (api) => api.members.names();
export const groupNames: NameSource = (api) => api.groups.names();
/** `--target` takes a member or `@group`. */
export const targetNames: NameSource = async (api) => {
  const [members, groups] = await Promise.all([api.members.names(), api.groups.names()]);
  return [...members, ...groups.map((g) => `@${g}`)];
};
