import { describe, expect, it } from "vitest";
import type { EngineError } from "../../base/errors.js";
import { inventory, newInstance, provider, refusal, rows, stored } from "../../testing/claim-rows.fixture.js";
import { checkClaimsInTurn, combineClaims, foldClaim, isCreateOnly } from "./batch.js";
import { checkClaim } from "./check-claim.js";
import { zeroProjectTotals } from "./project-usage.js";
import { nameKey } from "./rows.js";

describe("checking a batch of claims against one read", () => {
  it("a claim after an accepted one sees its ids, names, usage and project counters", () => {
    const claimRows = rows({
      providers: new Map([["a", provider({ VCPU: inventory(3) }, { VCPU: 1 })]]),
      projectTotals: new Map([["default", zeroProjectTotals()]]),
    });
    const first = newInstance("web", "a", { VCPU: 1 });
    const limits = { default: { instances: 2 } };
    const accepted = checkClaim({ create: [first], projectLimits: limits }, claimRows);
    foldClaim(claimRows, accepted);
    expect(claimRows.takenIds.has(first.id)).toBe(true);
    expect(claimRows.nameHolders.get(nameKey("default", "web"))).toBe(first.id);
    expect(claimRows.projectTotals.get("default")).toMatchObject({ instances: 1, containers: 1 });
    expect(refusal(() => checkClaim({ create: [newInstance("web", "a")] }, claimRows)).details).toMatchObject(
      {
        reason: "name_taken",
      },
    );
    expect(
      refusal(() => checkClaim({ create: [{ ...newInstance("w2", "a"), id: first.id }] }, claimRows)).details,
    ).toMatchObject({
      reason: "id_taken",
    });
    expect(
      refusal(() => checkClaim({ create: [newInstance("w3", "a", { VCPU: 2 })] }, claimRows)).details,
    ).toMatchObject({
      reason: "capacity",
      used: 2,
    });
    const second = checkClaim(
      { create: [newInstance("w4", "a", { VCPU: 1 })], projectLimits: limits },
      claimRows,
    );
    foldClaim(claimRows, second);
    expect(
      refusal(() => checkClaim({ create: [newInstance("w5", "a")], projectLimits: limits }, claimRows))
        .details,
    ).toMatchObject({ reason: "project_limit", value: 3 });

    const combined = combineClaims([accepted, second]);
    expect(combined.stored.map((r) => r.name)).toEqual(["web", "w4"]);
    expect(combined.usageChanges).toEqual([
      { provider: "a", resourceClass: "VCPU", ledger: "used", amount: 2 },
    ]);
    expect(combined.usage).toEqual([{ member: "a", used: { VCPU: 3 }, forthcoming: {} }]);
    expect(combined.projectChanges.get("default")).toMatchObject({ instances: 2, containers: 2 });
  });

  it("folding a removal frees its id and name; combined changes that cancel are not written", () => {
    const old = stored(newInstance("x", "a", { VCPU: 1 }));
    const claimRows = rows({
      instances: new Map([[old.id, old]]),
      takenIds: new Set([old.id]),
      nameHolders: new Map([[nameKey("default", "x"), old.id]]),
      providers: new Map([["a", provider(undefined, { VCPU: 1 })]]),
    });
    const removal = checkClaim({ remove: [{ id: old.id }] }, claimRows);
    foldClaim(claimRows, removal);
    expect([claimRows.instances.size, claimRows.takenIds.size, claimRows.nameHolders.size]).toEqual([
      0, 0, 0,
    ]);
    const again = checkClaim({ create: [newInstance("x", "a", { VCPU: 1 })] }, claimRows);
    const combined = combineClaims([removal, again]);
    expect(combined.usageChanges).toEqual([]);
    expect(combined.projectChanges.size).toBe(0);
    expect(combined.removed).toEqual([old]);
  });

  it("checks claims in turn: each refusal is its own outcome, the accepted ones make one write", () => {
    const claimRows = rows({ providers: new Map([["a", provider({ VCPU: inventory(2) })]]) });
    const claims = [
      { create: [newInstance("one", "a", { VCPU: 1 })] },
      { create: [newInstance("two", "a", { VCPU: 2 })] },
      { create: [newInstance("one", "a", { VCPU: 1 })] },
      { create: [newInstance("three", "a", { VCPU: 1 })] },
    ];
    const { outcomes, write } = checkClaimsInTurn(claims, claimRows);
    const reasons = outcomes.map((outcome) =>
      outcome.ok ? "ok" : (outcome.error as EngineError).details?.reason,
    );
    expect(reasons).toEqual(["ok", "capacity", "name_taken", "ok"]);
    expect(write?.stored.map((record) => record.name)).toEqual(["one", "three"]);
    expect(write?.usage).toEqual([{ member: "a", used: { VCPU: 2 }, forthcoming: {} }]);
    const none = checkClaimsInTurn([{ create: [newInstance("four", "a", { VCPU: 1 })] }], claimRows);
    expect(none.outcomes[0]?.ok).toBe(false);
    expect(none.write).toBeUndefined();
  });

  it("only creates are create-only", () => {
    expect(isCreateOnly({ create: [newInstance("x", "a")] })).toBe(true);
    expect(isCreateOnly({ remove: [{ id: "x" }] })).toBe(false);
    expect(isCreateOnly({ create: [], memberStates: [{ member: "a", evacuated: true }] })).toBe(false);
  });
});
