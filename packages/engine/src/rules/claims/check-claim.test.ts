import { describe, expect, it } from "vitest";
import type { Claim } from "../../store/port.js";
import {
  inventory,
  newInstance,
  provider,
  refusal,
  row,
  rows,
  stored,
} from "../../testing/claim-rows.fixture.js";
import { checkClaim } from "./check-claim.js";
import { zeroProjectTotals } from "./project-usage.js";
import { nameKey } from "./rows.js";

describe("checkClaim", () => {
  it("says what to write: versions to delete and insert, usage and counter changes", () => {
    const old = stored(newInstance("x", "a", { VCPU: 2 }), 4);
    const claimRows = rows({
      instances: new Map([[old.id, old]]),
      providers: new Map([
        ["a", provider(undefined, { VCPU: 2 })],
        ["b", provider()],
      ]),
    });
    const claim: Claim = {
      replace: [
        {
          record: { ...old, location: "b", allocations: newInstance("x", "b", { VCPU: 2 }).allocations },
          expectedRevision: 4,
        },
      ],
      create: [newInstance("y", "b", { VCPU: 1 }, { type: "virtual-machine" })],
    };
    const checked = checkClaim(claim, claimRows);
    expect(checked.removed).toEqual([old]);
    expect(checked.stored.map((r) => [r.name, r.location, r.revision])).toEqual([
      ["x", "b", 5],
      ["y", "b", 1],
    ]);
    expect(checked.usage).toEqual([
      { member: "a", used: {}, forthcoming: {} },
      { member: "b", used: { VCPU: 3 }, forthcoming: {} },
    ]);
    expect(checked.usageChanges).toEqual([
      { provider: "a", resourceClass: "VCPU", ledger: "used", amount: -2 },
      { provider: "b", resourceClass: "VCPU", ledger: "used", amount: 3 },
    ]);
    // The move changes no counter; the new VM does.
    expect([...checked.projectChanges]).toEqual([
      ["default", { ...zeroProjectTotals(), instances: 1, virtualMachines: 1 }],
    ]);
    // Stored versions are copies: the caller's records stay its own.
    expect(checked.stored[1]).not.toBe(claim.create![0]);
  });

  it("an instance may hold allocations on several providers", () => {
    const record = newInstance(
      "x",
      "a",
      {},
      {
        allocations: [
          row("a", "VCPU", 2),
          row("a-numa1", "MEMORY_MB", 1024),
          row("b", "DISK_GB", 10, "forthcoming"),
        ],
      },
    );
    const claimRows = rows({
      providers: new Map([
        ["a", provider({ VCPU: inventory(8) })],
        ["a-numa1", provider({ MEMORY_MB: inventory(4096) })],
        ["b", provider({ DISK_GB: inventory(100) })],
      ]),
    });
    expect(checkClaim({ create: [record] }, claimRows).usage).toEqual([
      { member: "a", used: { VCPU: 2 }, forthcoming: {} },
      { member: "a-numa1", used: { MEMORY_MB: 1024 }, forthcoming: {} },
      { member: "b", used: {}, forthcoming: { DISK_GB: 10 } },
    ]);
  });

  it("refuses a claim that breaks several rules with the first in a fixed order", () => {
    // Every rule broken at once; each step fixes one more and the next refusal shows.
    const old = stored(newInstance("x", "a"), 2);
    const taken = stored(newInstance("taken", "a"));
    const create = newInstance("taken", "gone", { VCPU: 99 }, { project: "nope", id: taken.id });
    const base = rows({
      instances: new Map([[old.id, old]]),
      takenIds: new Set([taken.id]),
      nameHolders: new Map([[nameKey("nope", "taken"), taken.id]]),
      providers: new Map([["a", provider({ VCPU: inventory(4) })]]),
      projectTotals: new Map([["nope", zeroProjectTotals()]]),
    });
    const claim: Claim = {
      replace: [{ record: old, expectedRevision: 1 }],
      create: [create],
      projectLimits: { nope: { instances: 0 } },
    };
    const reasons: unknown[] = [];
    const next = (change: () => void) => {
      const error = refusal(() => checkClaim(claim, base));
      reasons.push((error.details as { reason?: string } | undefined)?.reason ?? error.message);
      change();
    };
    next(() => (claim.replace = [{ record: old, expectedRevision: 2 }]));
    next(() => base.takenIds.clear());
    next(() => base.nameHolders.clear());
    next(() => base.projects.add("nope"));
    next(
      () =>
        (claim.create = [
          { ...create, location: "a", allocations: newInstance("t", "a", { VCPU: 99 }).allocations },
        ]),
    );
    next(() => base.providers.set("a", provider({ VCPU: inventory(128) })));
    next(() => (claim.projectLimits = {}));
    expect(reasons).toEqual([
      "revision",
      "id_taken",
      "name_taken",
      'Project "nope" not found',
      "member_missing",
      "capacity",
      "project_limit",
    ]);
    expect(checkClaim(claim, base).stored).toHaveLength(2);
  });

  it("never writes to the rows it was given", () => {
    const claimRows = rows({ providers: new Map([["a", provider(undefined, { VCPU: 1 })]]) });
    checkClaim({ create: [newInstance("x", "a", { VCPU: 2 })] }, claimRows);
    expect(claimRows.providers.get("a")!.used).toEqual({ VCPU: 1 });
    expect(claimRows.takenIds.size + claimRows.nameHolders.size + claimRows.instances.size).toBe(0);
  });
});
