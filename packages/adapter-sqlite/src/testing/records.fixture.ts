import { randomUUID } from "node:crypto";
import type { InventoryRecord, NewInstance, NewMember } from "@berth/engine";

/**
 * Record builders for this package's own tests and child processes (which
 * cannot import the engine's contract fixtures: those pull in vitest).
 */
export function inventoryOf(total: number, overrides: Partial<InventoryRecord> = {}): InventoryRecord {
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

export function memberOf(name: string, inventories: Record<string, InventoryRecord>): NewMember {
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
    inventories,
  };
}

export function instanceOf(
  name: string,
  location: string,
  resources: Record<string, number>,
  overrides: Partial<NewInstance> = {},
): NewInstance {
  const forthcoming = overrides.forthcoming ?? false;
  return {
    id: randomUUID(),
    project: "default",
    name,
    type: "container",
    location,
    forthcoming,
    architecture: "x86_64",
    description: "",
    ephemeral: false,
    profiles: ["default"],
    config: {},
    devices: {},
    instanceType: null,
    flavor: null,
    source: null,
    placementGroup: null,
    origin: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    allocations: Object.entries(resources).map(([resourceClass, amount]) => ({
      member: location,
      resourceClass,
      ledger: forthcoming ? ("forthcoming" as const) : ("used" as const),
      amount,
    })),
    limitsUsage: {
      cpu: resources.VCPU ?? 0,
      memoryBytes: (resources.MEMORY_MB ?? 0) * 1024 * 1024,
      diskBytes: 0,
    },
    ...overrides,
  };
}
