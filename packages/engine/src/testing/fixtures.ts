/**
 * Small builders for store records, shared by the contract suite, engine
 * tests and the store adapters' tests (subpath `@berth/engine/testing`, which
 * unlike `store-contract` needs no vitest, so adapter child processes can use
 * it). They fill every field with a neutral default so tests state only what
 * matters to them.
 */

import { withMirrors } from "../rules/claims/mirrors.js";
import { allocationsOf } from "../store/allocations.js";
import type { NewInstance, NewMember } from "../store/port.js";
import type { InventoryRecord, PlacementDecisionRecord } from "../store/records.js";

export { allocationsOf };

/**
 * An explicit inventory of `total` units with Placement's defaults (no reserve, unit 1, ratio 1).
 */
export function inventory(total: number, overrides: Partial<InventoryRecord> = {}): InventoryRecord {
  return {
    total,
    reserved: 0,
    minUnit: 1,
    maxUnit: 2147483647,
    stepSize: 1,
    allocationRatio: 1,
    source: "explicit",
    ...overrides,
  };
}

/** A member to create (x86_64, no inventories, never heard from) with `overrides` applied. */
export function newMember(name: string, overrides: Partial<NewMember> = {}): NewMember {
  return {
    name,
    url: `https://${name}:8443`,
    architecture: "x86_64",
    description: "",
    failureDomain: "default",
    roles: [],
    groups: [],
    config: {},
    traits: [],
    evacuated: false,
    lastHeartbeat: null,
    state: null,
    resources: null,
    inventories: {},
    ...overrides,
  };
}

let sequence = 0;
/**
 * The first group of every id this process makes: random, so processes that
 * write to one database file (the adapters' concurrency and crash tests)
 * never make the same id.
 */
const processTag = Math.floor(Math.random() * 2 ** 32)
  .toString(16)
  .padStart(8, "0");

/** A unique UUID-shaped id for tests: readable sequence numbers, distinct across processes. */
export function testId(): string {
  sequence += 1;
  const hex = sequence.toString(16).padStart(12, "0");
  return `${processTag}-0000-4000-8000-${hex}`;
}

/**
 * A container in project `default` on `location`, holding `resources` there (in the forthcoming
 * ledger for a reservation), with a `testId()` id and `overrides` applied.
 */
export function newInstance(
  name: string,
  location: string,
  resources: Record<string, number> = {},
  overrides: Partial<NewInstance> = {},
): NewInstance {
  const forthcoming = overrides.forthcoming ?? false;
  return {
    id: testId(),
    project: "default",
    name,
    type: "container",
    location,
    forthcoming,
    architecture: "x86_64",
    description: "",
    ephemeral: false,
    profiles: [],
    config: {},
    devices: {},
    instanceType: null,
    flavor: null,
    source: null,
    placementGroup: null,
    origin: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    allocations: allocationsOf(location, resources, forthcoming ? "forthcoming" : "used"),
    limitsUsage: { cpu: 0, memoryBytes: 0, diskBytes: 0 },
    decision: null,
    ...overrides,
  };
}

/** A decision record with every part filled, as the engine writes one (tests of stores and wire shapes). */
export function sampleDecision(
  member: string,
  overrides: Partial<PlacementDecisionRecord> = {},
): PlacementDecisionRecord {
  return {
    at: "2026-01-01T00:00:00.000Z",
    reason: "new",
    decidedBy: "scriptlet",
    member,
    target: "@rack-a",
    placementGroup: { name: "web", policy: "spread", rigor: "permissive" },
    members: 5,
    candidates: { count: 2, leading: [member, "other"] },
    rejections: [
      { code: "offline", count: 2, text: "2 members are offline", members: ["n3", "n4"], capacity: false },
      {
        code: "capacity:MEMORY_MB",
        count: 1,
        text: "1 member has too little MEMORY_MB",
        members: ["n5"],
        capacity: true,
      },
    ],
    log: [{ level: "info", message: 'instance_placement started: "é" ✓' }],
    logDropped: 3,
    scriptlet: { steps: 120, ms: 0.25 },
    ...overrides,
  };
}

/** A two-member instance: `resources` on `location`, its storage classes mirrored on `secondary`. */
export function mirroredInstance(
  name: string,
  location: string,
  secondary: string,
  resources: Record<string, number> = {},
  overrides: Partial<NewInstance> = {},
): NewInstance {
  const record = newInstance(name, location, resources, overrides);
  return { ...record, secondary, allocations: withMirrors(record.allocations, location, secondary) };
}
