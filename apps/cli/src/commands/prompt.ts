import { createInterface } from "node:readline";
import type { CommandContext } from "../context.js";

/** Asks a yes/no question; anything but y/yes, or end of input, is no. */
export function confirm(ctx: CommandContext, question: string): Promise<boolean> {
  ctx.io.stderr.write(`${question} (yes/no) [default=no]: `);
  const rl = createInterface({ input: ctx.io.stdin, terminal: false });
  return new Promise((resolve) => {
    let answered = false;
    rl.once("line", (line) => {
      answered = true;
      rl.close();
      resolve(/^(y|yes)$/i.test(line.trim()));
    });
    rl.once("close", () => {
      if (!answered) resolve(false);
    });
  });
}
