/**
 * An independent check of an allocator's answer against Ganeti's rules
 * (written apart from the engine, so a test using it can catch the
 * engine): every placed instance on usable nodes of one allocatable
 * group, the right number of distinct nodes, networks, instance policy,
 * memory, disk, spindles, vCPU ratio, exclusion tags, and N+1 (every
 * secondary keeps room for each primary it mirrors).
 */

/** Ganeti's JSON as read back: navigated freely by the checks, which verify every value they use. */
// biome-ignore lint/suspicious/noExplicitAny: untyped JSON from Ganeti's files and the allocators' answers
export type Json = Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: the same, as a list (an answer's result tuple)
export type JsonList = any[];

const LOCAL = new Set(["plain", "drbd"]);

/** With exclusive storage Ganeti holds the disks' spindles, not the declared spindle use, to the policy. */
function withinPolicy(policy: Json | undefined, spec: Json, exclusive: boolean): boolean {
  if (policy === undefined) return true;
  const templates: string[] = policy["disk-templates"] ?? [];
  if (templates.length > 0 && !templates.includes(spec.disk_template)) return false;
  const bands: Json[] = policy.minmax ?? [];
  if (bands.length === 0) return true;
  const ok = (v: number, lo?: number, hi?: number) =>
    (lo === undefined || v >= lo) && (hi === undefined || v <= hi);
  return bands.some(
    ({ min, max }) =>
      ok(spec.memory, min["memory-size"], max["memory-size"]) &&
      ok(spec.vcpus, min["cpu-count"], max["cpu-count"]) &&
      spec.disks.every((d: Json) => ok(d.size, min["disk-size"], max["disk-size"])) &&
      (spec.disk_template === "diskless" || ok(spec.disks.length, min["disk-count"], max["disk-count"])) &&
      ok(
        exclusive
          ? spec.disks.reduce((sum: number, d: Json) => sum + (d.spindles ?? 0), 0)
          : (spec.spindle_use ?? 1),
        min["spindle-use"],
        max["spindle-use"],
      ),
  );
}

/** Rule violations of the placements `[name, nodes][]` (new instances) in `input`; empty when valid. */
export function violations(
  input: Json,
  placements: [string, string[]][],
  specs: Map<string, Json>,
): string[] {
  const out: string[] = [];
  const nodes: Json = input.nodes;
  const free = new Map<string, { memory: number; disk: number; cpus: number; spindles: number }>();
  const peers = new Map<string, Map<string, number>>();
  const tags = new Map<string, Set<string>>();
  const prefixes = (input.cluster_tags as string[])
    .filter((t) => t.startsWith("htools:iextags:"))
    .map((t) => t.slice("htools:iextags:".length));
  const exclusion = (spec: Json) =>
    (spec.tags as string[]).filter((t) => prefixes.some((p) => t.startsWith(`${p}:`)));
  for (const [name, node] of Object.entries<Json>(nodes)) {
    free.set(name, {
      memory: node.free_memory ?? 0,
      disk: node.free_disk ?? 0,
      cpus: 0,
      spindles: node.free_spindles ?? 0,
    });
    peers.set(name, new Map());
    tags.set(name, new Set());
  }
  const account = (spec: Json, where: string[], consume: boolean) => {
    const disk = LOCAL.has(spec.disk_template) ? spec.disks.reduce((s: number, d: Json) => s + d.size, 0) : 0;
    const [p, s] = where;
    const fp = free.get(p!)!;
    if (consume) {
      fp.memory -= spec.memory;
      fp.disk -= disk;
    }
    fp.cpus += spec.vcpus;
    for (const tag of exclusion(spec)) tags.get(p!)!.add(tag);
    if (s !== undefined && spec.disk_template === "drbd") {
      if (consume) free.get(s)!.disk -= disk;
      const map = peers.get(s)!;
      map.set(p!, (map.get(p!) ?? 0) + spec.memory);
    }
  };
  for (const instance of Object.values<Json>(input.instances)) account(instance, instance.nodes, false);
  for (const [name, where] of placements) {
    const spec = specs.get(name)!;
    const needed = spec.disk_template === "drbd" ? 2 : 1;
    if (where.length !== needed) out.push(`${name}: ${where.length} nodes, ${needed} needed`);
    if (new Set(where).size !== where.length) out.push(`${name}: the same node twice`);
    const groups = new Set(where.map((n) => nodes[n]?.group));
    if (groups.size !== 1) out.push(`${name}: nodes in ${groups.size} groups`);
    for (const n of where) {
      const node = nodes[n];
      if (node === undefined) out.push(`${name}: unknown node ${n}`);
      else if (node.offline || node.drained || node.vm_capable === false)
        out.push(`${name}: unusable node ${n}`);
    }
    const group = input.nodegroups[nodes[where[0]!]?.group];
    if (group === undefined || group.alloc_policy === "unallocable") out.push(`${name}: unallocable group`);
    else {
      const exclusive = nodes[where[0]!]?.ndparams?.exclusive_storage === true;
      if (!withinPolicy(group.ipolicy, spec, exclusive))
        out.push(`${name}: outside the instance policy of ${group.name}`);
      for (const nic of spec.nics ?? [])
        if (nic.network != null && !(group.networks as string[]).includes(nic.network))
          out.push(`${name}: group ${group.name} lacks network ${nic.network}`);
      const primary = where[0]!;
      for (const tag of exclusion(spec))
        if (tags.get(primary)?.has(tag)) out.push(`${name}: exclusion tag ${tag} already on ${primary}`);
    }
    if (where.every((n) => free.has(n))) account(spec, where, true);
  }
  for (const [name, f] of free) {
    const node = nodes[name];
    if (f.memory < 0) out.push(`${name}: memory overcommitted (${f.memory})`);
    if (f.disk < 0) out.push(`${name}: disk overcommitted (${f.disk})`);
    const ratio = input.nodegroups[node.group]?.ipolicy?.["vcpu-ratio"];
    if (ratio !== undefined && f.cpus > ratio * ((node.total_cpus ?? 0) - (node.reserved_cpus ?? 0)))
      out.push(`${name}: vCPU ratio exceeded`);
    for (const [primary, memory] of peers.get(name)!)
      if (memory > f.memory) out.push(`${name}: cannot take over ${primary}'s ${memory} MiB (N+1)`);
  }
  return out;
}

/**
 * The violations the placements add: generated and real inputs may already
 * break a rule (a node short of its failover reserve); an allocator must
 * not make that worse, which changes the text, so it is still reported.
 */
export function newViolations(
  input: Json,
  placements: [string, string[]][],
  specs: Map<string, Json>,
): string[] {
  const before = new Set(violations(input, [], new Map()));
  return violations(input, placements, specs).filter((violation) => !before.has(violation));
}

/** Max minus min used memory (total - free after the placements) across usable nodes. */
export function memorySpread(
  input: Json,
  placements: [string, string[]][],
  specs: Map<string, Json>,
): number {
  const used = new Map<string, number>();
  for (const [name, node] of Object.entries<Json>(input.nodes))
    if (!node.offline && !node.drained && node.vm_capable !== false)
      used.set(name, node.total_memory - node.free_memory);
  for (const [name, where] of placements) {
    const primary = where[0]!;
    used.set(primary, (used.get(primary) ?? 0) + specs.get(name)!.memory);
  }
  const values = [...used.values()];
  return Math.max(...values) - Math.min(...values);
}
