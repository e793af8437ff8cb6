import type { Colors } from "./colour.js";

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const CLEAR_LINE = "\r\x1b[2K";

export interface ProgressStream {
  write(text: string): unknown;
}

/**
 * One redrawn status line for a terminal: a spinner, a bar over `total`
 * units and the elapsed time. Only used when stdout is a terminal; piped
 * output gets no progress at all (callers check).
 */
export class ProgressLine {
  readonly #stream: ProgressStream;
  readonly #colors: Colors;
  readonly #label: string;
  readonly #total: number;
  readonly #started = Date.now();
  #done = 0;
  #frame = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(stream: ProgressStream, colors: Colors, label: string, total: number) {
    this.#stream = stream;
    this.#colors = colors;
    this.#label = label;
    this.#total = total;
  }

  start(intervalMs = 80): void {
    this.#draw();
    this.#timer = setInterval(() => this.#draw(), intervalMs);
    // A pending redraw must not keep the process alive after the work is done.
    this.#timer.unref();
  }

  advance(units: number): void {
    this.#done = Math.min(this.#total, this.#done + units);
    this.#draw();
  }

  /** Clears the line so the next output starts clean. */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#stream.write(CLEAR_LINE);
  }

  #draw(): void {
    this.#frame = (this.#frame + 1) % SPINNER.length;
    this.#stream.write(
      `${CLEAR_LINE}${renderProgress(this.#label, this.#done, this.#total, Date.now() - this.#started, this.#colors, SPINNER[this.#frame] ?? "")}`,
    );
  }
}

/** The text of one progress line, e.g. `⠹ Placing instances [██████░░░░░░░░░░] 400/1000  1.2s`. */
export function renderProgress(
  label: string,
  done: number,
  total: number,
  elapsedMs: number,
  colors: Colors,
  spinner: string,
  width = 24,
): string {
  const filled = total === 0 ? width : Math.round((done / total) * width);
  const bar = colors.green("█".repeat(filled)) + colors.dim("░".repeat(width - filled));
  return `${colors.cyan(spinner)} ${label} [${bar}] ${done}/${total}  ${(elapsedMs / 1000).toFixed(1)}s`;
}
