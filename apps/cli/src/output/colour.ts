import { createColors } from "picocolors";

export type Colors = ReturnType<typeof createColors>;

export interface ColourContext {
  isTTY: boolean;
  env: Record<string, string | undefined>;
}

/**
 * Colour only when a person reads it: stdout is a terminal, `NO_COLOR` is
 * unset or empty (https://no-color.org) and the terminal is not "dumb".
 * Machine formats (json, yaml, csv) never carry escapes; callers pass
 * `machine: true` for those.
 */
export function colourEnabled(ctx: ColourContext, machine = false): boolean {
  if (machine || !ctx.isTTY) return false;
  const noColor = ctx.env.NO_COLOR;
  if (noColor !== undefined && noColor !== "") return false;
  return ctx.env.TERM !== "dumb";
}

export function colours(enabled: boolean): Colors {
  return createColors(enabled);
}
