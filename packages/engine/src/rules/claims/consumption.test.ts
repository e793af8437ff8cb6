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
    expect(changes.byClass.map((change) => [change.provider, change.resourceClass])).toEqual([
      ["a", "VCPU"],
      ["b", "VCPU"],
    ]);
    expect(changes.byClass[0]).toMatchObject({ used: -1, forthcoming: 0 });
  });

  it("sums the same past the size where look-ups go through a map (bulk claims)", () => {
    // 12 providers, 2 classes each: past the scanned lists' limit for both touched and byClass.
    const providers = Array.from({ length: 12 }, (_, index) => `m${index}`);
    const olds = providers.map((member) => stored(newInstance(`o-${member}`, member, { VCPU: 1 })));
    const news = providers.flatMap((member) => [
      newInstance(`n1-${member}`, member, { VCPU: 2, MEMORY_MB: 8 }),
      newInstance(`n2-${member}`, member, { VCPU: 3, MEMORY_MB: 0 }),
    ]);
    const changes = consumptionChanges(olds, news);
    expect(changes.touched).toEqual(providers);
    expect(changes.byClass).toEqual([
      ...providers.map((member) => ({ provider: member, resourceClass: "VCPU", used: 4, forthcoming: 0 })),
      ...providers.map((member) => ({
        provider: member,
        resourceClass: "MEMORY_MB",
        used: 8,
        forthcoming: 0,
      })),
    ]);
  });
});
