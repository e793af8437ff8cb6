import { describe, expect, it } from "vitest";
import { newInstance, stored } from "../../testing/claim-rows.fixture.js";
import { consumptionChanges } from "./consumption.js";

describe("consumptionChanges", () => {
  it("sums per (provider, class) and per ledger: removed rows out, new rows in", () => {
    const reservation = stored(newInstance("r", "a", { VCPU: 3, MEMORY_MB: 512 }, { forthcoming: true }));
    const committed = {
      ...reservation,
      forthcoming: false,
      allocations: newInstance("r", "a", { VCPU: 3, MEMORY_MB: 1024 }).allocations,
    };
    const changes = consumptionChanges([reservation], [committed]);
    expect([...changes.byClass.values()]).toEqual([
      { provider: "a", resourceClass: "VCPU", used: 3, forthcoming: -3 },
      { provider: "a", resourceClass: "MEMORY_MB", used: 1024, forthcoming: -512 },
    ]);
    expect([...changes.touched]).toEqual(["a"]);
  });

  it("touches every removed row's provider and each new record's location, but skips new zero rows", () => {
    const old = stored(newInstance("x", "a", { VCPU: 1 }));
    const moved = newInstance("x", "b", { VCPU: 1, MEMORY_MB: 0 });
    const unplaced = newInstance("y", "c", { VCPU: 0 });
    const changes = consumptionChanges([old], [moved, unplaced]);
    expect([...changes.touched].sort()).toEqual(["a", "b", "c"]);
    expect([...changes.byClass.keys()]).toEqual(["a\u0000VCPU", "b\u0000VCPU"]);
    expect(changes.byClass.get("a\u0000VCPU")).toMatchObject({ used: -1, forthcoming: 0 });
  });
});
