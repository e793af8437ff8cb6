import { BerthApi } from "@berth/client/node";
import type { Command, Option } from "commander";
import { CommandContext, type Io } from "../context.js";
import { usageError } from "../exit-codes.js";
import { OUTPUT_FORMATS } from "../output/format.js";
import { action, examples } from "./action.js";
import { type ArgumentNames, argumentNames, targetNames } from "./argument-names.js";

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

/** Names from the server for the word being typed, or none when it names nothing that exists. */
async function dynamicCandidates(ctx: CommandContext, state: Walk, current: string): Promise<string[]> {
  let names: ArgumentNames | undefined;
  if (state.pendingOption?.long === "--target") names = { source: targetNames };
  else if (!state.pendingOption && !current.startsWith("-"))
    names = argumentNames(state.command, state.positionals);
  if (names === undefined) return [];
  // A shell waiting on a hung server is worse than no names: give up after 3 s (a dead one fails at once).
  const api = new BerthApi({ ...ctx.connection().options, timeoutMs: 3000 });
  const listed = await names.source(api);
  // In "ssd,ra" only "ra" is being typed; the candidates keep the items before it.
  const head = names.commaList ? current.slice(0, current.lastIndexOf(",") + 1) : "";
  const done = new Set(head.split(","));
  return listed
    .filter((name) => !done.has(name))
    .map((name) => head + name)
    .filter((candidate) => candidate.startsWith(current))
    .sort();
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
      const current = typed[typed.length - 1] ?? "";
      try {
        candidates.push(...(await dynamicCandidates(new CommandContext(io, command), state, current)));
      } catch {
        // No server reachable: complete what is known statically, silently.
      }
      io.stdout.write(candidates.length > 0 ? `${candidates.join("\n")}\n` : "");
    });
}
