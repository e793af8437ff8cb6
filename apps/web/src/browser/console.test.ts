/**
 * The console driven in Debian's headless Chromium against a real berthd
 * (the built entry point, `--demo`'s four members): sign in, see members
 * and fill, watch a placement made through the API appear, read a
 * decision record and a rejection's reasons, check, dry-run and apply a
 * scriptlet, evacuate and restore a member, and a project token's narrower
 * view. Every view is checked with axe-core and photographed into
 * reports/screenshots/.
 */
import { BerthApi } from "@berth/client/node";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Berthd, startBerthd } from "./berthd.fixture.js";
import { axeViolations, chromiumMissing, launchChromium, screenshot } from "./chromium.fixture.js";

const missing = chromiumMissing();
if (missing !== undefined) console.warn(`skipping the console's browser tests: ${missing}`);

const WAIT = { timeout: 15_000, interval: 100 };

/** Polls a locator's text until `expected` matches (the console refetches on its own schedule). */
async function textOf(locator: Locator): Promise<string> {
  return (await locator.count()) === 0 ? "" : ((await locator.first().textContent()) ?? "");
}

async function axeClean(page: Page): Promise<void> {
  expect(await axeViolations(page)).toEqual([]);
}

describe.skipIf(missing !== undefined)("the web console in Chromium", () => {
  let berthd: Berthd;
  let api: BerthApi;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    berthd = await startBerthd(["--demo"]);
    api = new BerthApi({ url: berthd.url, token: berthd.adminToken });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await berthd?.stop();
  });

  /** Follows a navigation link in the header, as a user would. */
  async function open(view: string): Promise<void> {
    await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: view }).click();
    await page.getByRole("heading", { level: 1 }).first().waitFor();
  }

  it("serves the sign-in page at the address berthd prints, and refuses a wrong token in words", async () => {
    expect(berthd.consoleUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ui\/$/);
    // A short poll so the test sees live changes quickly (the default is 2 s).
    await page.goto(`${berthd.consoleUrl}?poll=300`);
    await page.getByLabel("API token").fill("berth_not-a-token");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => textOf(page.getByRole("alert")), WAIT).toBe("Invalid bearer token (HTTP 401)");
    await axeClean(page);
    // The check can fail: an input without a label is found.
    await page.evaluate(() =>
      document.body.append(Object.assign(document.createElement("input"), { id: "probe" })),
    );
    expect((await axeViolations(page)).map((violation) => violation.id)).toContain("label");
    await page.evaluate(() => document.getElementById("probe")?.remove());
    await screenshot(page, "1-sign-in");
  });

  it("signs in with an admin token and shows every member with its status and fill", async () => {
    await page.getByLabel("API token").fill(berthd.adminToken);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Cluster", level: 1 }).waitFor();
    await expect.poll(() => page.evaluate(() => document.body.dataset.clusterReady), WAIT).toBe("4");
    const node3 = page.locator('[data-member="node3"]');
    await expect.poll(() => textOf(node3), WAIT).toContain("Online");
    // node3: 32 vCPU at ratio 4 -> 128 of capacity, nothing used yet.
    expect(await textOf(node3)).toContain("0% · 0 of 128 ×4");
    // Grouped by failure domain: the racks are the headings.
    expect(await textOf(page.locator(".member-section").first())).toContain("rack-a");
    expect(await page.getByRole("img", { name: /vCPU fill of 4 members/ }).count()).toBe(1);
    await axeClean(page);
    await screenshot(page, "2-cluster");
    // Keyboard: arrows move through the virtualised rows, End jumps to the last.
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute("data-member") ?? null);
    await page.locator('[data-member="node1"]').focus();
    await page.keyboard.press("ArrowDown");
    await expect.poll(focused, WAIT).toBe("node2");
    await page.keyboard.press("End");
    await expect.poll(focused, WAIT).toBe("node4");
  });

  it("shows a placement made through the API without a reload", async () => {
    const instancesDd = page.locator(".summary div", { hasText: "Instances" }).locator("dd");
    expect(await textOf(instancesDd)).toBe("0");
    const placed = await api.createInstance(
      { name: "web1", source: { type: "image", alias: "ubuntu/24.04" }, flavor: "m1.large" },
      { target: "node3" },
    );
    expect(placed.metadata.location).toBe("node3");
    await expect.poll(() => textOf(instancesDd), WAIT).toBe("1");
    await expect.poll(() => textOf(page.locator('[data-member="node3"]')), WAIT).toContain("4 of 128");
  });

  it("filters members by group and trait", async () => {
    await page.getByLabel("Cluster group").selectOption("rack-b");
    await expect.poll(() => textOf(page.locator("p.muted[aria-live]")), WAIT).toBe("Showing 2 of 4 members.");
    expect(await page.locator('[data-member="node1"]').count()).toBe(0);
    await page.getByLabel("Cluster group").selectOption("");
    await expect.poll(() => textOf(page.locator("p.muted[aria-live]")), WAIT).toBe("Showing 4 of 4 members.");
  });

  it("counts how many more of a flavor fit, and what stops each member", async () => {
    const panel = page.locator(".capacity-panel");
    await page.getByLabel("Flavor").selectOption("m1.large");
    await panel.getByRole("button", { name: "Count" }).click();
    await expect.poll(() => textOf(panel.getByRole("status")), WAIT).toMatch(/^\d[\d,]* more fit \(.+\)$/);
    expect(await panel.getByRole("row").count()).toBeGreaterThan(1);
    await axeClean(page);
    await screenshot(page, "2b-capacity");
  });

  it("tells why an instance landed where it did, rejections grouped by reason", async () => {
    // 40 vCPU fits node1..node3 (64 and 128 of capacity) but not node4 (8 x 4 = 32).
    await api.createInstance({
      name: "big1",
      source: { type: "image", alias: "ubuntu/24.04" },
      config: { "limits.cpu": "40" },
    });
    await open("Instances");
    await expect.poll(() => page.evaluate(() => document.body.dataset.instancesReady), WAIT).toBe("2");
    await page.locator('[data-instance="big1"]').getByRole("link", { name: "big1" }).click();
    const why = page.locator("section.why");
    await expect.poll(() => textOf(why), WAIT).toContain("Turned down");
    const record = await api.instancePlacement("big1");
    expect(await textOf(why.getByRole("heading", { level: 3 }))).toBe(`Why ${record.member}?`);
    const rejection = record.rejections.find((group) => group.members.includes("node4"));
    expect(rejection).toBeDefined();
    expect(await textOf(why.locator(".rejections li", { hasText: "node4" }))).toBe(
      `${rejection!.text}: node4`,
    );
    await axeClean(page);
    await screenshot(page, "3-instance-decision");
  });

  it("checks a scriptlet as it is typed, dry-runs it with its log and rejections, and applies it", async () => {
    await open("Scriptlet");
    await expect.poll(() => page.evaluate(() => document.body.dataset.workbenchReady), WAIT).toBe("true");
    const editor = page.locator(".cm-content");
    const status = page.getByRole("status");
    const replace = async (source: string) => {
      await editor.click();
      await page.keyboard.press("Control+A");
      await page.keyboard.insertText(source);
    };
    await replace("def instance_placement(request, candidate_members):\n    x = \n");
    await expect
      .poll(() => textOf(status), WAIT)
      .toBe("Line 2, column 9: instance_placement:2:9: got newline, want primary expression");
    expect(await page.getByRole("button", { name: "Apply scriptlet" }).isDisabled()).toBe(true);
    await replace(
      'def instance_placement(request, candidate_members):\n    log_info("sending ", request.name, " to node2")\n    set_target("node2")\n',
    );
    await expect.poll(() => textOf(status), WAIT).toBe("Compiles: the server accepts it.");
    await page.getByLabel("Name", { exact: true }).fill("probe1");
    await page.getByRole("button", { name: "Dry run" }).click();
    const result = page.locator("section.dry-result");
    await expect
      .poll(() => textOf(result.locator(".notice")), WAIT)
      .toBe("Would place on node2 (decided by scriptlet).");
    expect(await textOf(result.locator(".log"))).toContain("sending probe1 to node2");
    // A request no member can hold: rejected, with each reason and its members.
    await page.getByLabel("Config (key=value per line)").fill("limits.cpu=500");
    await page.getByRole("button", { name: "Dry run" }).click();
    await expect.poll(() => textOf(result.locator(".notice")), WAIT).toMatch(/^Rejected \(HTTP 507\)/);
    expect(await result.locator(".rejections li").count()).toBeGreaterThan(0);
    expect(await textOf(result.locator(".rejections"))).toContain("node4");
    await axeClean(page);
    await screenshot(page, "4-scriptlet-workbench");
    await page.getByRole("button", { name: "Apply scriptlet" }).click();
    const dialog = page.getByRole("dialog", { name: "Apply this scriptlet?" });
    await dialog.getByRole("button", { name: "Apply" }).click();
    await dialog.waitFor({ state: "detached" });
    const inForce = (await api.getServer()).config["instances.placement.scriptlet"];
    expect(inForce).toContain('set_target("node2")');
    // In force: the next placement through the API goes where it says.
    expect(
      (await api.createInstance({ name: "web2", source: { type: "image", alias: "ubuntu/24.04" } })).metadata
        .location,
    ).toBe("node2");
    expect(await textOf(page.locator("h2", { hasText: "Placement scriptlet" }))).toContain("in force");
  });

  it("evacuates and restores a member, each behind a confirmation", async () => {
    expect((await api.instances.get("big1")).location).toBe("node1");
    await open("Operations");
    const row = page.locator('tr[data-member="node1"]');
    await row.getByRole("button", { name: "Evacuate node1" }).click();
    const evacuate = page.getByRole("dialog", { name: "Evacuate node1?" });
    await axeClean(page);
    await screenshot(page, "5-operations-confirm");
    await evacuate.getByRole("button", { name: "Evacuate" }).click();
    await evacuate.waitFor({ state: "detached" });
    expect((await api.members.get("node1")).status).toBe("Evacuated");
    // Moved where the scriptlet in force says.
    expect((await api.instances.get("big1")).location).toBe("node2");
    await expect.poll(() => textOf(row), WAIT).toContain("Evacuated");
    await row.getByRole("button", { name: "Restore node1" }).click();
    const restore = page.getByRole("dialog", { name: "Restore node1?" });
    await restore.getByRole("button", { name: "Restore" }).click();
    await restore.waitFor({ state: "detached" });
    expect((await api.members.get("node1")).status).toBe("Online");
    await expect.poll(() => textOf(row), WAIT).toContain("Online");
  });

  it("shows what a reservation holds, and commits or cancels it behind a confirmation", async () => {
    const reserve = (name: string) =>
      api.createInstance({
        name,
        source: { type: "image", alias: "ubuntu/24.04" },
        flavor: "m1.small",
        forthcoming: true,
      });
    await reserve("hold1");
    await reserve("hold2");
    await open("Instances");
    await page.getByLabel("Show").selectOption("reservations");
    await expect
      .poll(
        () =>
          page
            .locator("[data-instance]")
            .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-instance"))),
        WAIT,
      )
      .toEqual(["hold1", "hold2"]);
    await page.locator('[data-instance="hold1"]').getByRole("link", { name: "hold1" }).click();
    const detail = page.locator("aside.detail");
    await expect
      .poll(() => textOf(detail.getByRole("heading", { level: 2 })), WAIT)
      .toBe("Reservation hold1");
    expect(await textOf(detail)).toContain("vCPU 1");
    await detail.getByRole("button", { name: "Commit reservation" }).click();
    const commit = page.getByRole("dialog", { name: "Commit reservation hold1?" });
    await commit.getByRole("button", { name: "Commit" }).click();
    await commit.waitFor({ state: "detached" });
    expect((await api.instances.get("hold1")).forthcoming).toBe(false);
    await page.locator('[data-instance="hold2"]').getByRole("link", { name: "hold2" }).click();
    await expect
      .poll(() => textOf(detail.getByRole("heading", { level: 2 })), WAIT)
      .toBe("Reservation hold2");
    await detail.getByRole("button", { name: "Cancel reservation" }).click();
    const cancel = page.getByRole("dialog", { name: "Cancel reservation hold2?" });
    await cancel.getByRole("button", { name: "Cancel reservation" }).click();
    await cancel.waitFor({ state: "detached" });
    expect(await api.instances.names()).not.toContain("hold2");
  });

  it("previews the rebalance plan the server would apply, and applies it behind a confirmation", async () => {
    // Six instances crowded onto node4 by target: moving some evens the cluster out.
    for (let n = 1; n <= 6; n++) {
      await api.createInstance(
        { name: `crowd${n}`, source: { type: "image", alias: "ubuntu/24.04" }, flavor: "m1.small" },
        { target: "node4" },
      );
    }
    await open("Operations");
    const expected = await api.rebalancePlan();
    expect(expected.moves.length).toBeGreaterThan(0);
    await page.getByRole("button", { name: "Preview rebalance plan" }).click();
    const rows = page.locator("table.plan tbody tr");
    await expect.poll(() => rows.count(), WAIT).toBe(expected.moves.length);
    await page.getByRole("button", { name: "Apply plan" }).click();
    const dialog = page.getByRole("dialog", {
      name: `Apply a rebalance of ${expected.moves.length} move(s)?`,
    });
    await dialog.getByRole("button", { name: "Apply plan" }).click();
    await dialog.waitFor({ state: "detached" });
    const moved = expected.moves[0]!;
    expect((await api.instances.get(moved.instance, { project: moved.project })).location).toBe(moved.to);
    // The next automatic run (off by default): its rules, and the containers stay (they cannot live-migrate).
    await page.getByRole("button", { name: "Preview the next automatic run" }).click();
    await expect
      .poll(() => textOf(page.locator("p", { hasText: "Automatic rebalancing is off" })), WAIT)
      .toBe(
        "Automatic rebalancing is off (cluster.rebalance.interval=0); a run would use threshold 20%, batch 1, cooldown 6H.",
      );
    // The cluster now holds ten instances: the picture the READMEs show (apps/web/docs/cluster.png).
    await open("Cluster");
    await expect
      .poll(() => textOf(page.locator(".summary div", { hasText: "Instances" }).locator("dd")), WAIT)
      .toBe(String((await api.instances.names()).length));
    await screenshot(page, "6-cluster-filled");
  });

  it("shows a project token only its project, without the cluster-wide tools", async () => {
    await api.projects.create({ name: "team" });
    await api.createInstance(
      { name: "t1", source: { type: "image", alias: "ubuntu/24.04" } },
      { project: "team" },
    );
    const teamToken = await berthd.createToken("team", ["--project", "team"]);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("API token").fill(teamToken);
    await page.getByRole("button", { name: "Sign in" }).click();
    const nav = page.getByRole("navigation", { name: "Views" });
    await nav.getByRole("link", { name: "Instances" }).click();
    await expect.poll(() => page.evaluate(() => document.body.dataset.instancesReady), WAIT).toBe("1");
    expect(
      await page
        .locator("[data-instance]")
        .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-instance"))),
    ).toEqual(["t1"]);
    expect(await nav.getByRole("link").allTextContents()).toEqual(["Cluster", "Instances"]);
    expect(await textOf(page.locator(".who"))).toBe('Signed in: token "team" (projects: team)');
  });
});
