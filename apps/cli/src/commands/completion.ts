import { BerthApi } from "@berth/server/client";
import type { Command, Option } from "commander";
import { CommandContext, type Io } from "../context.js";
import { usageError } from "../exit-codes.js";
import { OUTPUT_FORMATS } from "../output/format.js";
import { action, examples } from "./action.js";

const SHELLS = ["bash", "zsh", "fish"] as const;

/** Scripts that ask `berth __complete WORDS...` for candidates, one per line. */
export function completionScript(shell: string): string {
  switch (shell) {
    case "bash":
      return `# berth completion for bash: source <(berth completion bash)
_berth_complete() {
  local IFS=$'\\n'
  COMPREPLY=($(berth __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
}
complete -o default -F _berth_complete berth
`;
    case "zsh":
      return `#compdef berth
# berth completion for zsh: source <(berth completion zsh)
_berth() {
  local -a candidates
  candidates=("\${(@f)$(berth __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  compadd -a candidates
}
compdef _berth berth
`;
    case "fish":
      return `# berth completion for fish: berth completion fish | source
complete -c berth -f -a '(berth __complete -- (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)'
`;
    default:
      throw usageError(`Unknown shell "${shell}": expected one of ${SHELLS.join(", ")}`);
  }
}

/** Which server names an argument position takes, for dynamic completion. */
type NameKind = "instance" | "member" | "target";

const DYNAMIC: Record<string, NameKind> = {
  info: "instance",
  delete: "instance",
  move: "instance",
  commit: "instance",
  "cluster show": "member",
  "cluster remove": "member",
  "cluster evacuate": "member",
  "cluster restore": "member",
  "cluster set": "member",
  "cluster unset": "member",
  "cluster report": "member",
  "cluster inventory list": "member",
  "cluster inventory set": "member",
  "cluster inventory unset": "member",
};

function visibleOptions(command: Command): Option[] {
  const options: Option[] = [];
  for (let c: Command | null = command; c; c = c.parent) options.push(...c.options.filter((o) => !o.hidden));
  return options;
}

function optionTakingValue(command: Command, flag: string): Option | undefined {
  return visibleOptions(command).find(
    (o) => (o.long === flag || o.short === flag) && (o.required || o.optional),
  );
}

interface Walk {
  command: Command;
  path: string[];
  /** The option whose value is being typed, if any. */
  pendingOption: Option | undefined;
  positionals: number;
}

/** Follows the typed words (all but the one being completed) down the command tree. */
export function walk(program: Command, words: string[]): Walk {
  let command = program;
  const path: string[] = [];
  let pendingOption: Option | undefined;
  let positionals = 0;
  for (const word of words) {
    if (pendingOption) {
      pendingOption = undefined;
      continue;
    }
    if (word.startsWith("-")) {
      if (!word.includes("=")) pendingOption = optionTakingValue(command, word);
      continue;
    }
    const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub && positionals === 0) {
      command = sub;
      path.push(sub.name());
    } else {
      positionals++;
    }
  }
  return { command, path, pendingOption, positionals };
}

/** Candidates that need no server: subcommands, flags, formats. */
export function staticCandidates(program: Command, words: string[]): string[] {
  const current = words[words.length - 1] ?? "";
  const state = walk(program, words.slice(0, -1));
  let candidates: string[];
  if (state.pendingOption?.long === "--format") candidates = [...OUTPUT_FORMATS];
  else if (state.pendingOption) candidates = [];
  else if (current.startsWith("-"))
    candidates = visibleOptions(state.command).flatMap((o) => (o.long ? [o.long] : []));
  else
    candidates =
      state.positionals === 0
        ? state.command.commands.map((c) => c.name()).filter((name) => !name.startsWith("__"))
        : [];
  return candidates.filter((c) => c.startsWith(current)).sort();
}

async function dynamicCandidates(ctx: CommandContext, kind: NameKind): Promise<string[]> {
  // A shell waiting on a hung server is worse than no names: give up after 3 s (a dead one fails at once).
  const api = new BerthApi({ ...ctx.connection().options, timeoutMs: 3000 });
  if (kind === "instance") return (await api.instances.names()).filter((n) => n !== "");
  const members = await api.members.names();
  if (kind === "member") return members;
  const groups = await api.groups.names();
  return [...members, ...groups.map((g) => `@${g}`)];
}

export function registerCompletionCommands(program: Command, io: Io): void {
  program
    .command("completion")
    .description("Print a shell completion script")
    .argument("<shell>", SHELLS.join("|"))
    .addHelpText(
      "after",
      examples(
        "source <(berth completion bash)",
        "berth completion zsh > ~/.zfunc/_berth",
        "berth completion fish | source",
      ),
    )
    .action(action(io, async (ctx, shell: string) => ctx.out(completionScript(shell))));

  program
    .command("__complete", { hidden: true })
    .description("Completion candidates for the words typed so far (used by the completion scripts)")
    .argument("[words...]")
    .allowUnknownOption()
    .helpOption(false)
    .action(async (words: string[], _options: unknown, command: Command) => {
      const typed = words.length === 0 ? [""] : words;
      const candidates = staticCandidates(program, typed);
      const state = walk(program, typed.slice(0, -1));
      const key = state.path.join(" ");
      const current = typed[typed.length - 1] ?? "";
      let kind: NameKind | undefined;
      if (state.pendingOption?.long === "--target") kind = "target";
      else if (!state.pendingOption && !current.startsWith("-") && state.positionals === 0)
        kind = DYNAMIC[key];
      if (kind) {
        try {
          const ctx = new CommandContext(io, command);
          candidates.push(
            ...(await dynamicCandidates(ctx, kind)).filter((n) => n.startsWith(current)).sort(),
          );
        } catch {
          // No server reachable: complete what is known statically, silently.
        }
      }
      io.stdout.write(candidates.length > 0 ? `${candidates.join("\n")}\n` : "");
    });
}
