/**
 * A cluster handed in whole (Ganeti's iallocator input): members with what
 * they report free, groups with their policies, and the instances already
 * placed, each on one member or on a primary and a secondary. Placing
 * changes it in place, so a batch sees its own earlier placements.
 */
import { type InstancePolicy, OPEN_POLICY, policyFailure } from "./policy.js";
import { GroupBalance, metricsOf } from "./score.js";
import { diskSpindles, diskTotal, type InstanceSpec, isMirrored, usesLocalStorage } from "./spec.js";

/**
 * A node group's allocation policy (Ganeti's): preferred groups are tried first, last-resort ones
 * only when none fits, unallocable never.
 */
export type AllocPolicy = "preferred" | "last_resort" | "unallocable";

/** A node group of the handed-in cluster. */
export interface SnapshotGroup {
  /** Ganeti's group uuid. */
  readonly id: string;
  /** Its name. */
  readonly name: string;
  /** Whether and when instances go there. */
  readonly allocPolicy: AllocPolicy;
  /** Networks it is connected to (an instance's NICs need every one). */
  readonly networks: readonly string[];
  /** Its instance policy (bands, templates, ratios). */
  readonly policy: InstancePolicy;
}

/** A node as the iallocator input describes it (memory and disk in MiB). */
export interface SnapshotNodeInput {
  /** Its name. */
  readonly name: string;
  /** The id of its node group. */
  readonly group: string;
  /** False for offline, drained and non-vm-capable nodes: they take nothing new. */
  readonly usable: boolean;
  /** Its tags (exclusion and location tags among them). */
  readonly tags: readonly string[];
  /** Memory in all (MiB). */
  readonly totalMemory: number;
  /** What the node reports free (existing primaries already counted). */
  readonly freeMemory: number;
  /** Disk in all (MiB). */
  readonly totalDisk: number;
  /** Disk free (MiB). */
  readonly freeDisk: number;
  /** Physical spindles in all. */
  readonly totalSpindles: number;
  /** Physical spindles free (with exclusive storage). */
  readonly freeSpindles: number;
  /** Physical CPUs. */
  readonly totalCpus: number;
  /** CPUs kept for the node itself. */
  readonly reservedCpus: number;
  /** Spindles for the spindle-ratio check (without exclusive storage). */
  readonly spindleCount: number;
  /** Whether each disk takes whole physical volumes. */
  readonly exclusiveStorage: boolean;
}

/** A member as placements see and change it. */
export class SnapshotNode {
  /** Memory free now (MiB), as placements in the snapshot left it. */
  freeMemory: number;
  /** Disk free now (MiB). */
  freeDisk: number;
  /** Physical spindles free now (exclusive storage). */
  freeSpindles: number;
  /** Virtual CPUs of its primaries. */
  usedCpus = 0;
  /** Spindle use of its primaries. */
  spindleUse = 0;
  /** Memory and local disk of the non-mirrored primaries: what re-creating them elsewhere needs. */
  movableMemory = 0;
  /** Local disk of the non-mirrored primaries (MiB). */
  movableDisk = 0;
  /** Memory of the mirrored instances this node is secondary for, by their primary. */
  readonly peers = new Map<string, number>();
  /** The largest `peers` entry: memory this node keeps free to take over one failed primary. */
  reservedMemory = 0;
  /** Instances it runs. */
  readonly primaries = new Set<PlacedInstance>();
  /** Mirrored instances it holds a copy of. */
  readonly secondaries = new Set<PlacedInstance>();
  /** Non-mirrored primaries the group's policy would refuse: they cannot be re-created elsewhere. */
  unmovable = 0;
  /** Exclusion tags of the primaries, counted. */
  readonly exclusionTags = new Map<string, number>();

  constructor(
    /** The node as the iallocator request describes it (its totals, flags and group). */
    readonly input: SnapshotNodeInput,
  ) {
    this.freeMemory = input.freeMemory;
    this.freeDisk = input.freeDisk;
    this.freeSpindles = input.freeSpindles;
  }

  /** The node's name. */
  get name(): string {
    return this.input.name;
  }

  /** Physical CPUs left for instances. */
  get effectiveCpus(): number {
    return Math.max(this.input.totalCpus - this.input.reservedCpus, 0);
  }

  /** Memory it keeps for `primary`'s instances mirrored on it (MiB). */
  peerMemory(primary: string): number {
    return this.peers.get(primary) ?? 0;
  }

  /**
   * Adds `memory` (negative: removes it) to what `primary`'s mirrored instances hold on this
   * node, and recomputes its reserve (the largest such sum).
   */
  addPeer(primary: string, memory: number): void {
    const next = this.peerMemory(primary) + memory;
    if (next === 0) this.peers.delete(primary);
    else this.peers.set(primary, next);
    let max = 0;
    for (const value of this.peers.values()) if (value > max) max = value;
    this.reservedMemory = max;
  }
}

/** An instance placed in the snapshot, on one node or a primary and a secondary. */
export interface PlacedInstance {
  /** What it needs. */
  readonly spec: InstanceSpec;
  /** Primary first, then the secondary of a mirrored instance. */
  nodes: string[];
  /** Exclusion tags (the `htools:iextags:` prefixes applied to its tags). */
  readonly exclusionTags: readonly string[];
}

/**
 * The handed-in cluster, changed in place by each placement: groups, nodes with what they hold,
 * and the instances placed.
 */
export class SnapshotCluster {
  /** Node groups, by id. */
  readonly groups = new Map<string, SnapshotGroup>();
  /** Nodes, by name. */
  readonly nodes = new Map<string, SnapshotNode>();
  /** Instances placed, by name. */
  readonly instances = new Map<string, PlacedInstance>();
  /** Nodes of each group, in input order. */
  private readonly byGroup = new Map<string, SnapshotNode[]>();
  /** Each group's balance sums, built on first use and kept in step with every placement. */
  private readonly balances = new Map<string, GroupBalance>();

  constructor(
    groups: readonly SnapshotGroup[],
    nodes: readonly SnapshotNodeInput[],
    /** Instance tag prefixes that exclude each other on a primary (`htools:iextags:PREFIX`). */
    readonly exclusionPrefixes: readonly string[] = [],
    /** Node tag prefixes naming failure domains (`htools:nlocation:PREFIX`). */
    readonly locationPrefixes: readonly string[] = [],
    /** Instance tag prefixes naming a desired failure domain (`htools:desiredlocation:PREFIX`). */
    readonly desiredLocationPrefixes: readonly string[] = [],
  ) {
    for (const group of groups) {
      this.groups.set(group.id, group);
      this.byGroup.set(group.id, []);
    }
    for (const input of nodes) {
      const node = new SnapshotNode(input);
      this.nodes.set(input.name, node);
      this.byGroup.get(input.group)?.push(node);
    }
  }

  /** A group by id (an unknown id: an unallocable group with an open policy). */
  group(id: string): SnapshotGroup {
    return (
      this.groups.get(id) ?? { id, name: id, allocPolicy: "unallocable", networks: [], policy: OPEN_POLICY }
    );
  }

  /** The running balance sums of a group's usable nodes (built on first use). */
  balanceOf(group: string): GroupBalance {
    let balance = this.balances.get(group);
    if (balance === undefined) {
      balance = new GroupBalance(this.nodesOf(group).filter((node) => node.input.usable));
      this.balances.set(group, balance);
    }
    return balance;
  }

  /** Applies `change` to a node, keeping its group's balance sums in step. */
  private changeNode(node: SnapshotNode, change: () => void): void {
    const balance = node.input.usable ? this.balances.get(node.input.group) : undefined;
    if (balance === undefined) {
      change();
      return;
    }
    const before = metricsOf(node);
    change();
    balance.replace(before, metricsOf(node));
  }

  /** A group's nodes, in input order. */
  nodesOf(group: string): readonly SnapshotNode[] {
    return this.byGroup.get(group) ?? [];
  }

  /** The tags among `tags` that exclude sharing a primary (the cluster's exclusion prefixes). */
  exclusionTagsOf(tags: readonly string[]): string[] {
    return tags.filter((tag) => this.exclusionPrefixes.some((prefix) => tag.startsWith(`${prefix}:`)));
  }

  /** The failure domains a node is in (its location tags). */
  locationsOf(node: SnapshotNode): string[] {
    return node.input.tags.filter((tag) => this.locationPrefixes.some((p) => tag.startsWith(`${p}:`)));
  }

  /** The failure domains an instance asks to be in (its desired-location tags). */
  desiredLocationsOf(spec: InstanceSpec): string[] {
    return spec.tags.filter((tag) => this.desiredLocationPrefixes.some((p) => tag.startsWith(`${p}:`)));
  }

  /** Records an instance that already runs: what it uses is already in its nodes' free figures. */
  addExisting(spec: InstanceSpec, nodes: readonly string[]): PlacedInstance {
    const placed: PlacedInstance = {
      spec,
      nodes: [...nodes],
      exclusionTags: this.exclusionTagsOf(spec.tags),
    };
    this.instances.set(spec.name, placed);
    this.attach(placed, false);
    return placed;
  }

  /**
   * Places a new instance: its nodes' free figures shrink by what it takes.
   * It is found by name afterwards unless an instance of that name is
   * already there (Ganeti may ask to place a name the cluster still holds).
   */
  addNew(spec: InstanceSpec, nodes: readonly string[]): PlacedInstance {
    const placed: PlacedInstance = {
      spec,
      nodes: [...nodes],
      exclusionTags: this.exclusionTagsOf(spec.tags),
    };
    if (!this.instances.has(spec.name)) this.instances.set(spec.name, placed);
    this.attach(placed, true);
    return placed;
  }

  /** Takes an instance out: what it used is free again. */
  remove(placed: PlacedInstance): void {
    this.detach(placed);
    if (this.instances.get(placed.spec.name) === placed) this.instances.delete(placed.spec.name);
  }

  /** Puts a removed instance back on its (possibly new) `nodes`, taking what it uses there. */
  restore(placed: PlacedInstance): void {
    this.instances.set(placed.spec.name, placed);
    this.attach(placed, true);
  }

  /** Moves an instance to new nodes (relocation, evacuation): freed where it was, taken where it goes. */
  move(placed: PlacedInstance, nodes: readonly string[]): void {
    this.detach(placed);
    placed.nodes = [...nodes];
    this.attach(placed, true);
  }

  private attach(placed: PlacedInstance, consume: boolean): void {
    this.account(placed, consume ? 1 : 0, 1);
  }

  private detach(placed: PlacedInstance): void {
    this.account(placed, -1, -1);
  }

  /** Applies an instance to its nodes: `use` signs free figures (0 leaves them), `sign` the bookkeeping. */
  private account(placed: PlacedInstance, use: number, sign: 1 | -1): void {
    const { spec } = placed;
    const disk = usesLocalStorage(spec.template) ? diskTotal(spec) : 0;
    const spindles = diskSpindles(spec) ?? 0;
    const [primaryName, secondaryName] = placed.nodes;
    const primary = primaryName === undefined ? undefined : this.nodes.get(primaryName);
    if (primary !== undefined)
      this.changeNode(primary, () => {
        primary.freeMemory -= use * spec.memory;
        primary.freeDisk -= use * disk;
        if (primary.input.exclusiveStorage) primary.freeSpindles -= use * spindles;
        primary.usedCpus += sign * spec.vcpus;
        primary.spindleUse += sign * spec.spindleUse;
        if (!isMirrored(spec.template)) {
          primary.movableMemory += sign * spec.memory;
          primary.movableDisk += sign * disk;
          if (policyFailure(this.group(primary.input.group).policy, spec) !== undefined)
            primary.unmovable += sign;
        }
        if (sign > 0) primary.primaries.add(placed);
        else primary.primaries.delete(placed);
        for (const tag of placed.exclusionTags) {
          const next = (primary.exclusionTags.get(tag) ?? 0) + sign;
          if (next <= 0) primary.exclusionTags.delete(tag);
          else primary.exclusionTags.set(tag, next);
        }
      });
    const secondary = secondaryName === undefined ? undefined : this.nodes.get(secondaryName);
    if (secondary !== undefined && primaryName !== undefined && isMirrored(spec.template))
      this.changeNode(secondary, () => {
        secondary.freeDisk -= use * disk;
        if (secondary.input.exclusiveStorage) secondary.freeSpindles -= use * spindles;
        secondary.spindleUse += sign * spec.spindleUse;
        secondary.addPeer(primaryName, sign * spec.memory);
        if (sign > 0) secondary.secondaries.add(placed);
        else secondary.secondaries.delete(placed);
      });
  }
}
