import type { Browser } from "playwright-core";

/** Debian's Chromium, which the browser tests and the render bench drive. */
export declare const CHROMIUM: string;
/** Headless flags of the project's browser tests. */
export declare const CHROMIUM_FLAGS: readonly string[];
/** Why Chromium cannot run here, or undefined when it can. */
export declare function chromiumMissing(): string | undefined;
export declare function launchChromium(): Promise<Browser>;
