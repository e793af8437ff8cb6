import { describe, expect, it } from "vitest";
import { inventory, newInstance, provider, stored } from "../../testing/claim-rows.fixture.js";
import { consumptionChanges } from "./consumption.js";
import { addToLedger, usageAfter, usageChangesOf } from "./usage-after.js";

describe("usage after a claim", () => {
  const old = stored(newInstance("x", "a", { VCPU: 2 }));
  const moved = newInstance("x", "b", { VCPU: 2 }, { id: old.id });
  const providers = new Map([
    ["a", provider({ VCPU: inventory(8) }, { VCPU: 2, MEMORY_MB: 64 })],
    ["b", provider({ VCPU: inventory(8) }, {}, { VCPU: 1 })],
  ]);
  const changes = consumptionChanges([old], [moved, newInstance("y", "gone", { VCPU: 0 })]);

  it("the changes to write, per provider, class and ledger, on providers that exist", () => {
    expect(usageChangesOf(changes, providers)).toEqual([
      { provider: "a", resourceClass: "VCPU", ledger: "used", amount: -2 },
      { provider: "b", resourceClass: "VCPU", ledger: "used", amount: 2 },
    ]);
  });

  it("the usage to answer with: touched providers that exist, sorted, zeros dropped", () => {
    expect(usageAfter(changes, providers)).toEqual([
      { member: "a", used: { MEMORY_MB: 64 }, forthcoming: {} },
      { member: "b", used: { VCPU: 2 }, forthcoming: { VCPU: 1 } },
    ]);
    // Fresh objects: the rows the Store read are left as they were.
    expect(providers.get("a")!.used).toEqual({ VCPU: 2, MEMORY_MB: 64 });
  });

  it("addToLedger drops a class that reaches zero", () => {
    const ledger: Record<string, number> = { VCPU: 2 };
    addToLedger(ledger, "VCPU", -2);
    addToLedger(ledger, "MEMORY_MB", 5);
    expect(ledger).toEqual({ MEMORY_MB: 5 });
  });
});
