// Debian's Chromium driven by playwright-core, as the console's browser tests
// and the render bench (bench/src/benches/console-render.ts) both launch it:
// a browser download fails on the build machines, so the executable is the
// system's, headless, with the project's flags.
import { existsSync } from "node:fs";
import { chromium } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Why Chromium cannot run here, or undefined when it can. */
export function chromiumMissing() {
  return existsSync(CHROMIUM)
    ? undefined
    : `${CHROMIUM} is missing: install Debian's chromium (scripts/test-deps.sh does)`;
}

export function launchChromium() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
}
