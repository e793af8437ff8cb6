/**
 * A handed-in cluster's ledger: the snapshot cluster loaded into a Store
 * (the in-memory one unless given another) as members and instances, and
 * every placement the snapshot search decides committed there as a claim,
 * so the engine's claim rules are the final gate: memory on the primary,
 * local disk on both members of a mirrored instance (`secondary`), and N+1
 * on every secondary (rules/claims/mirrors.ts). Ganeti's own rules
 * (instance policy, CPU ratio, spindles, tags, group policies) stay with
 * the search, which the ledger never second-guesses; a refusal here means
 * the search and the claim rules disagree, and the caller reports it.
 *
 * Capacities are what the cluster reports, put so that the instances it
 * already holds fit exactly and the rest is what a new one may use:
 * MEMORY_MB is the memory of a node's primaries plus its free memory (at
 * least the memory it already keeps for failovers, so a cluster that
 * breaks N+1 today still loads, and then takes nothing more there); local
 * disk (`CUSTOM_DISK_MIB`, Ganeti's MiB) is its instances' disks on it plus
 * its free disk.
 */
import type { Inventory } from "@berth/resources";
import { MemoryStore } from "../memory-store/memory-store.js";
import { withMirrors } from "../rules/claims/mirrors.js";
import type { ClaimResult, NewInstance, NewMember, Store } from "../store/port.js";
import type { AllocationRow, InstanceRecord, InventoryRecord } from "../store/records.js";
import type { PlacedInstance, SnapshotCluster, SnapshotNode } from "./cluster.js";
import { diskTotal, isMirrored, usesLocalStorage } from "./spec.js";

/** Ganeti counts disk in MiB; a custom class keeps the unit exact. */
export const LEDGER_DISK_CLASS = "CUSTOM_DISK_MIB";
const MEMORY_CLASS = "MEMORY_MB";
/** Instances the cluster holds, and those a request places (a name may be both: Ganeti may re-place one). */
const HELD = "default";
const PLACED = "placed";

/** Placement's largest amount: no instance is refused for its size, only for what is left. */
const MAX_UNIT = 2_147_483_647;

function inventoryOf(total: number): InventoryRecord | undefined {
  if (total <= 0) return undefined;
  const inventory: Inventory = {
    total,
    reserved: 0,
    minUnit: 1,
    maxUnit: MAX_UNIT,
    stepSize: 1,
    allocationRatio: 1,
  };
  return { ...inventory, source: "explicit" };
}

function localDisk(placed: PlacedInstance): number {
  return usesLocalStorage(placed.spec.template) ? diskTotal(placed.spec) : 0;
}

function memberOf(node: SnapshotNode, memory: number, disk: number): NewMember {
  const inventories: Record<string, InventoryRecord> = {};
  const memoryInventory = inventoryOf(memory);
  if (memoryInventory !== undefined) inventories[MEMORY_CLASS] = memoryInventory;
  const diskInventory = inventoryOf(disk);
  if (diskInventory !== undefined) inventories[LEDGER_DISK_CLASS] = diskInventory;
  return {
    name: node.name,
    url: "",
    architecture: "",
    description: "",
    failureDomain: "",
    roles: [],
    groups: [],
    config: {},
    traits: [],
    evacuated: !node.input.usable,
    lastHeartbeat: null,
    state: null,
    resources: null,
    inventories,
  };
}

/** What an instance holds on its nodes: memory on the primary, local disk on both of a mirrored one. */
function recordOf(placed: PlacedInstance, project: string): NewInstance {
  const [primary, secondaryNode] = placed.nodes;
  const location = primary!;
  const secondary = isMirrored(placed.spec.template) ? secondaryNode : undefined;
  const rows: AllocationRow[] = [];
  if (placed.spec.memory > 0)
    rows.push({ member: location, resourceClass: MEMORY_CLASS, ledger: "used", amount: placed.spec.memory });
  const disk = localDisk(placed);
  if (disk > 0)
    rows.push({ member: location, resourceClass: LEDGER_DISK_CLASS, ledger: "used", amount: disk });
  const record: NewInstance = {
    id: `${project}/${placed.spec.name}`,
    project,
    name: placed.spec.name,
    type: "virtual-machine",
    location,
    forthcoming: false,
    architecture: "",
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
    createdAt: "",
    allocations: secondary === undefined ? rows : withMirrors(rows, location, secondary),
    limitsUsage: { cpu: 0, memoryBytes: 0, diskBytes: 0 },
    decision: null,
  };
  if (secondary !== undefined) record.secondary = secondary;
  return record;
}

/** Every instance on a node of the cluster, by identity (a re-placed name is two instances). */
function attached(cluster: SnapshotCluster): Set<PlacedInstance> {
  const out = new Set<PlacedInstance>();
  for (const node of cluster.nodes.values()) for (const placed of node.primaries) out.add(placed);
  return out;
}

/**
 * The handed-in cluster loaded into a Store, so the search's placements are committed as claims
 * and the engine's claim rules (capacity, N+1) have the last word. `SnapshotLedger.open(cluster)`,
 * place, then `commit()`.
 */
export class SnapshotLedger {
  /** Each instance the store holds, with the nodes it holds it on. */
  private readonly held = new Map<PlacedInstance, { record: InstanceRecord; nodes: string }>();

  private constructor(
    private readonly cluster: SnapshotCluster,
    /** The Store the cluster was loaded into (a MemoryStore unless `open` was given one); placements are claimed in it. */
    readonly store: Store,
  ) {}

  /**
   * Loads `cluster` as it is now (before any placement) into `store`: one
   * member per node, the instances it holds in one claim.
   */
  static async open(cluster: SnapshotCluster, store: Store = new MemoryStore()): Promise<SnapshotLedger> {
    const ledger = new SnapshotLedger(cluster, store);
    await store.projects.create({ name: HELD, description: "", config: {} });
    await store.projects.create({ name: PLACED, description: "", config: {} });
    await store.resourceClasses.create({ name: LEDGER_DISK_CLASS, custom: true });
    const instances = [...attached(cluster)];
    const memory = new Map<string, number>();
    const disk = new Map<string, number>();
    const add = (sums: Map<string, number>, node: string | undefined, amount: number) => {
      if (node !== undefined) sums.set(node, (sums.get(node) ?? 0) + amount);
    };
    for (const placed of instances) {
      add(memory, placed.nodes[0], placed.spec.memory);
      add(disk, placed.nodes[0], localDisk(placed));
      if (isMirrored(placed.spec.template)) add(disk, placed.nodes[1], localDisk(placed));
    }
    for (const node of cluster.nodes.values()) {
      const free = Math.max(node.freeMemory, node.reservedMemory, 0);
      const member = memberOf(
        node,
        (memory.get(node.name) ?? 0) + free,
        (disk.get(node.name) ?? 0) + Math.max(node.freeDisk, 0),
      );
      await store.createMember(member);
    }
    if (instances.length > 0) {
      const { instances: stored } = await store.claim({ create: instances.map((p) => recordOf(p, HELD)) });
      for (const [index, placed] of instances.entries())
        ledger.held.set(placed, { record: stored[index]!, nodes: placed.nodes.join(",") });
    }
    return ledger;
  }

  /**
   * Commits what the search changed since the last commit, in one claim:
   * the instances it placed (created) and those it moved (replaced at
   * their revision). Throws the claim rules' refusal; nothing when nothing
   * changed.
   */
  async commit(): Promise<ClaimResult | undefined> {
    const created: PlacedInstance[] = [];
    const moved: PlacedInstance[] = [];
    for (const placed of attached(this.cluster)) {
      const held = this.held.get(placed);
      if (held === undefined) created.push(placed);
      else if (held.nodes !== placed.nodes.join(",")) moved.push(placed);
    }
    if (created.length === 0 && moved.length === 0) return undefined;
    const result = await this.store.claim({
      create: created.map((placed) => recordOf(placed, PLACED)),
      replace: moved.map((placed) => {
        const { record } = this.held.get(placed)!;
        return {
          record: { ...recordOf(placed, record.project), id: record.id },
          expectedRevision: record.revision,
        };
      }),
    });
    const byId = new Map(result.instances.map((record) => [record.id, record]));
    for (const placed of [...moved, ...created]) {
      const project = this.held.get(placed)?.record.project ?? PLACED;
      const record = byId.get(this.held.get(placed)?.record.id ?? `${project}/${placed.spec.name}`)!;
      this.held.set(placed, { record, nodes: placed.nodes.join(",") });
    }
    return result;
  }
}
