/**
 * What a member's reports say about its size, read the way Nova's resource
 * tracker reads a hypervisor: CPU threads, memory bytes and the size of the
 * storage pools instances' root disks use. An LXD member sends two reports:
 * its hardware (`PUT .../resources`, LXD `api.Resources`) and its state
 * (`PUT .../state`, LXD `ClusterMemberState`, also its heartbeat). The
 * hardware report is preferred where it says something; the state fills in
 * the rest, so a member that only sends heartbeats is still sized.
 */

/** A member's size as reported; a field is absent when no report gives it. */
export interface ReportedCapacity {
  readonly cpuThreads?: number;
  readonly memoryBytes?: number;
  readonly rootPoolBytes?: number;
}

/** Where each standard class is read from, for refusals that tell the operator what to report. */
export const CAPACITY_REPORT_FIELDS = {
  VCPU: "cpu.total in PUT /1.0/cluster/members/NAME/resources, or sysinfo.logical_cpus in PUT /1.0/cluster/members/NAME/state",
  MEMORY_MB:
    "memory.total in PUT /1.0/cluster/members/NAME/resources, or sysinfo.total_ram in PUT /1.0/cluster/members/NAME/state",
  DISK_GB: "storage_pools.POOL.space.total in PUT /1.0/cluster/members/NAME/state",
} as const;

/**
 * How a member with no inventory of `resourceClass` can get one: the report
 * field it is derived from, or an explicit inventory (`member` names the
 * member in the URLs; several members are "NAME"). Undefined for classes
 * that are never derived (custom ones exist only where set explicitly).
 */
export function capacityReportHint(resourceClass: string, member = "NAME"): string | undefined {
  if (!(resourceClass in CAPACITY_REPORT_FIELDS)) return undefined;
  const field = CAPACITY_REPORT_FIELDS[resourceClass as keyof typeof CAPACITY_REPORT_FIELDS];
  return `report ${field.replaceAll("NAME", member)}, or set its ${resourceClass} inventory`;
}

/** The pool root disks use when no profile names one: LXD's `default`, else the first one reported. */
const FALLBACK_ROOT_POOL = "default";

function field(value: unknown, key: string): unknown {
  if (typeof value !== "object" || value === null) return undefined;
  return (value as Record<string, unknown>)[key];
}

/** A size worth deriving from: a positive finite number (Go's zero value means "not reported"). */
function positive(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * The bytes of the pools root disks use (`rootPools`, root-disk-pools.ts):
 * the sum over those the member reports, since an instance may land on any
 * of them and a cluster LXD runs must not be refused; undefined when it
 * reports none of them (it cannot host a root disk: LXD refuses the same
 * instance there for the missing pool). With no pool named, LXD's
 * `default` pool, else the first one reported.
 */
function rootPoolBytes(state: unknown, rootPools: readonly string[]): number | undefined {
  const pools = field(state, "storage_pools");
  if (typeof pools !== "object" || pools === null) return undefined;
  const byName = pools as Record<string, unknown>;
  if (rootPools.length === 0) {
    const pool = FALLBACK_ROOT_POOL in byName ? byName[FALLBACK_ROOT_POOL] : Object.values(byName)[0];
    return positive(field(field(pool, "space"), "total"));
  }
  let total: number | undefined;
  for (const name of rootPools) {
    const size = Object.hasOwn(byName, name)
      ? positive(field(field(byName[name], "space"), "total"))
      : undefined;
    if (size !== undefined) total = (total ?? 0) + size;
  }
  return total;
}

/**
 * The member's size from its stored reports (either may be null: not sent
 * yet), with DISK_GB from the pools `rootPools` names (the profiles' root
 * disk pools, root-disk-pools.ts; none: LXD's default pool). Each report is
 * read defensively: stored reports were decoded when they arrived, but
 * older rows may hold fewer fields.
 */
export function reportedCapacity(
  resources: unknown,
  state: unknown,
  rootPools: readonly string[] = [],
): ReportedCapacity {
  const sysinfo = field(state, "sysinfo");
  const cpuThreads =
    positive(field(field(resources, "cpu"), "total")) ?? positive(field(sysinfo, "logical_cpus"));
  const memoryBytes =
    positive(field(field(resources, "memory"), "total")) ?? positive(field(sysinfo, "total_ram"));
  const rootPool = rootPoolBytes(state, rootPools);
  return {
    ...(cpuThreads !== undefined ? { cpuThreads } : {}),
    ...(memoryBytes !== undefined ? { memoryBytes } : {}),
    ...(rootPool !== undefined ? { rootPoolBytes: rootPool } : {}),
  };
}
