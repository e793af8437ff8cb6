/**
 * The web console's cluster view in Debian's headless Chromium, against the
 * real berthd on generated clusters of 100 (the baseline, same run), 1,000
 * and 10,000 members. Per size and load (a fresh page each time, signed in
 * through sessionStorage as after a reload):
 *   - render: the members' answer fully received -> the view committed
 *     (fill bars, heat map, virtualised list) and the next frame painted;
 *   - total: navigation start -> the same point (includes berthd's answer);
 *   - longest main-thread task during the load (Long Tasks API): how long
 *     the page could not answer input;
 *   - scrolling the member list to its end in steps, and typing a search:
 *     the longest task meanwhile, and the search's time to the new count.
 * Bars (issue #20): 1,000 members render in under 1 s; 10,000 never block
 * the page for a second (longest task < 1 s while loading, scrolling and
 * filtering). Medians over the loads.
 *   node dist/benches/console-render.js [--quick]
 */
import { join } from "node:path";
import { chromiumMissing, launchChromium } from "@berth/web/chromium";
import type { Browser, Page } from "playwright-core";
import { prepareClusterFile } from "../cluster/prepare-apart.js";
import { type ClusterShape, describeShape } from "../cluster/shape.js";
import { median, round } from "../measure/stats.js";
import { tempDir } from "../measure/temp.js";
import { log, since } from "../measure/timing.js";
import { atMost, type BarResult, figure, writeResult } from "../report/results.js";
import { Berthd } from "../server/berthd.js";

const quick = process.argv.includes("--quick");
const LOADS = quick ? 2 : 5;
const SIZES: ClusterShape[] = [
  { members: 100, instances: 2_000 },
  { members: 1_000, instances: 20_000 },
  { members: 10_000, instances: 100_000 },
];
/** The console keeps the token here (apps/web/src/session/session.ts). */
const TOKEN_KEY = "berth.console.token";

interface Load {
  renderMs: number;
  totalMs: number;
  longestTaskMs: number;
}

interface Interaction {
  scrollLongestTaskMs: number;
  searchMs: number;
  searchLongestTaskMs: number;
}

/** Page-side code is passed as text: this package compiles without the DOM's types. */
const OBSERVE_PAGE = `
  window.__longest = 0;
  // The cluster view marks <body data-cluster-ready="N"> once it has committed N members; the next
  // frame after that is when the user sees them.
  new MutationObserver(() => {
    if (window.__paintedAt !== undefined || document.body.dataset.clusterReady === undefined) return;
    requestAnimationFrame(() => setTimeout(() => (window.__paintedAt = performance.now()), 0));
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-cluster-ready"] });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longest = Math.max(window.__longest, entry.duration);
  }).observe({ type: "longtask", buffered: true });
`;

/** What the page-side functions touch (this package compiles without the DOM's types). */
interface PageGlobals {
  document: {
    body: { dataset: Record<string, string | undefined> };
    querySelector(selector: string): { textContent: string | null } | null;
  };
}

async function load(page: Page, consoleUrl: string, members: number): Promise<Load> {
  await page.goto(`${consoleUrl}cluster?poll=600000`);
  // Predicates are functions, not strings: the console's policy forbids eval, and so would a string.
  await page.waitForFunction(
    (count) => (globalThis as unknown as PageGlobals).document.body.dataset.clusterReady === count,
    String(members),
    { timeout: 120_000, polling: 16 },
  );
  await page.waitForFunction(
    () => (globalThis as unknown as { __paintedAt?: number }).__paintedAt !== undefined,
  );
  return (await page.evaluate(`(() => {
    const answer = performance.getEntriesByType("resource").find((entry) => entry.name.includes("recursion=2"));
    return {
      renderMs: window.__paintedAt - answer.responseEnd,
      totalMs: window.__paintedAt,
      longestTaskMs: window.__longest,
    };
  })()`)) as Load;
}

async function interact(page: Page): Promise<Interaction> {
  await page.evaluate("window.__longest = 0");
  const scroller = page.locator(".member-scroll");
  for (let step = 0; step < 20; step++) {
    await scroller.evaluate(
      (element, fraction) => {
        (element as unknown as { scrollTop: number; scrollHeight: number }).scrollTop =
          (element as unknown as { scrollHeight: number }).scrollHeight * fraction;
      },
      (step + 1) / 20,
    );
    await page.evaluate("new Promise((resolve) => requestAnimationFrame(() => resolve(null)))");
  }
  const scrollLongestTaskMs = (await page.evaluate("window.__longest")) as number;
  await page.evaluate("window.__longest = 0");
  const counter = page.locator("p.muted[aria-live]");
  const before = await counter.textContent();
  const started = Date.now();
  await page.getByLabel("Name", { exact: true }).fill("member-1");
  await page.waitForFunction(
    (shown) =>
      (globalThis as unknown as PageGlobals).document.querySelector("p.muted[aria-live]")?.textContent !==
      shown,
    before,
    { polling: 16 },
  );
  const searchMs = Date.now() - started;
  const searchLongestTaskMs = (await page.evaluate("window.__longest")) as number;
  return { scrollLongestTaskMs, searchMs, searchLongestTaskMs };
}

const missing = chromiumMissing();
if (missing !== undefined) {
  log(`console-render: ${missing}; nothing measured`);
  process.exit(1);
}
const started = performance.now();
const { dir, cleanup } = tempDir("console");
const bars: BarResult[] = [];
const details: Record<string, unknown>[] = [];
let browser: Browser | undefined;
try {
  browser = await launchChromium();
  for (const shape of SIZES) {
    const db = join(dir, `berth-${shape.members}.db`);
    const token = await prepareClusterFile(db, shape);
    const server = await Berthd.start({ db, token, startTimeoutMs: 120_000 });
    const loads: Load[] = [];
    const interactions: Interaction[] = [];
    try {
      for (let run = 0; run < LOADS; run++) {
        const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
        await context.addInitScript(`sessionStorage.setItem(${JSON.stringify(TOKEN_KEY)}, ${JSON.stringify(token)});
          ${OBSERVE_PAGE}`);
        const page = await context.newPage();
        loads.push(await load(page, `${server.url}/ui/`, shape.members));
        interactions.push(await interact(page));
        await context.close();
        const last = loads.at(-1)!;
        log(
          `${describeShape(shape)} load ${run + 1}: render ${round(last.renderMs)} ms, total ${round(last.totalMs)} ms, longest task ${round(last.longestTaskMs)} ms; ${JSON.stringify(interactions.at(-1))}`,
        );
      }
    } finally {
      await server.stop();
    }
    const of = <T>(list: T[], key: keyof T) => round(median(list.map((entry) => entry[key] as number)));
    const figures = {
      shape,
      renderMs: of(loads, "renderMs"),
      totalMs: of(loads, "totalMs"),
      longestTaskMs: of(loads, "longestTaskMs"),
      scrollLongestTaskMs: of(interactions, "scrollLongestTaskMs"),
      searchMs: of(interactions, "searchMs"),
      searchLongestTaskMs: of(interactions, "searchLongestTaskMs"),
      loads,
      interactions,
    };
    details.push(figures);
    const where = `${shape.members.toLocaleString("en-US")} members`;
    if (shape.members === 1_000) {
      bars.push(
        atMost(
          "console.render.1k",
          `console cluster view, ${where}: answer -> painted, median`,
          figures.renderMs,
          1_000,
          "ms",
        ),
      );
    } else {
      bars.push(
        figure(
          `console.render.${shape.members}`,
          `console cluster view, ${where}: answer -> painted, median`,
          figures.renderMs,
          "ms",
        ),
      );
    }
    bars.push(
      figure(
        `console.total.${shape.members}`,
        `  same, navigation -> painted (berthd's answer included)`,
        figures.totalMs,
        "ms",
      ),
    );
    if (shape.members === 10_000) {
      const worst = Math.max(figures.longestTaskMs, figures.scrollLongestTaskMs, figures.searchLongestTaskMs);
      bars.push(
        atMost(
          "console.freeze.10k",
          `console, ${where}: longest main-thread task (load, scroll to end, search), median`,
          worst,
          1_000,
          "ms",
        ),
      );
    } else {
      bars.push(
        figure(
          `console.longtask.${shape.members}`,
          `  same, longest main-thread task while loading`,
          figures.longestTaskMs,
          "ms",
        ),
      );
    }
    bars.push(
      figure(
        `console.search.${shape.members}`,
        `  same, typing a name filter -> new count shown`,
        figures.searchMs,
        "ms",
      ),
    );
  }
} finally {
  await browser?.close();
  cleanup();
}
writeResult("console-render.json", {
  benchmark: "web console cluster view in Chromium",
  durationMs: since(started),
  bars,
  details: { loads: LOADS, sizes: details },
});
for (const bar of bars)
  log(`${bar.bar}: ${bar.measured} ${bar.unit} ${bar.met === null ? "" : bar.met ? "(met)" : "(NOT met)"}`);
