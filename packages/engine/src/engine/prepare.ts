/**
 * Turns a create body (or a stored instance being moved) into a `Prepared`
 * placement: project, limits, expanded request, target. All store reads of a
 * placement happen here, before the synchronous plan step, so deciding and
 * holding capacity in the model never interleave with other placements.
 */
import { randomUUID } from "node:crypto";
import type { InstancesPost } from "@berth/api-types";
import { EngineError, forbidden, invalid, notFound } from "../errors.js";
import { type ExpandedRequest, type ExpansionCatalog, expandRequest } from "../expand/expand.js";
import { allowedGroupsOf, projectLimitsOf } from "../expand/project-limits.js";
import { cloneDevices, cloneJson } from "../store/clone.js";
import type { ProjectLimits } from "../store/port.js";
import type {
  FlavorRecord,
  ImageRecord,
  InstanceRecord,
  PlacementGroupRecord,
  ProfileRecord,
  ProjectRecord,
} from "../store/records.js";
import type { EngineRuntime } from "./runtime.js";

export type Target = { kind: "member"; name: string } | { kind: "group"; name: string } | null;

export interface Prepared {
  id: string;
  project: ProjectRecord;
  limits: ProjectLimits;
  allowedGroups: string[];
  request: ExpandedRequest;
  target: Target;
  placementGroup: PlacementGroupRecord | null;
  forthcoming: boolean;
  architecture: string;
  description: string;
  ephemeral: boolean;
  source: Record<string, unknown> | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(text: string): boolean {
  return UUID.test(text);
}

/** Preloaded catalog reads for one operation (a bulk batch shares them). */
export class CatalogCache {
  private readonly profiles = new Map<string, Promise<Map<string, ProfileRecord>>>();
  private readonly flavors = new Map<string, Promise<FlavorRecord | undefined>>();
  private images: Promise<ImageRecord[]> | undefined;

  constructor(private readonly runtime: EngineRuntime) {}

  /** LXD `features.profiles`: projects without it use the default project's profiles. */
  profileProject(project: ProjectRecord): string {
    return project.name === "default" || project.config["features.profiles"] === "true"
      ? project.name
      : "default";
  }

  profilesOf(project: ProjectRecord): Promise<Map<string, ProfileRecord>> {
    const key = this.profileProject(project);
    let entry = this.profiles.get(key);
    if (entry === undefined) {
      entry = this.runtime.store.profiles
        .list({ project: key })
        .then((list) => new Map(list.map((profile) => [profile.name, profile])));
      this.profiles.set(key, entry);
    }
    return entry;
  }

  flavor(name: string): Promise<FlavorRecord | undefined> {
    let entry = this.flavors.get(name);
    if (entry === undefined) {
      entry = this.runtime.store.flavors.get({ name });
      this.flavors.set(name, entry);
    }
    return entry;
  }

  allImages(): Promise<ImageRecord[]> {
    this.images ??= this.runtime.store.images.list();
    return this.images;
  }

  async expansionCatalog(project: ProjectRecord, body: InstancesPost): Promise<ExpansionCatalog> {
    const profiles = await this.profilesOf(project);
    const flavor =
      body.flavor !== undefined && body.flavor !== "" ? await this.flavor(body.flavor) : undefined;
    const needsImages =
      body.source !== undefined && (body.source.alias !== undefined || body.source.fingerprint !== undefined);
    const images = needsImages ? await this.allImages() : [];
    return {
      profile: (name) => profiles.get(name),
      flavor: (name) => (flavor !== undefined && flavor.name === name ? flavor : undefined),
      imageByFingerprint: (fingerprint) =>
        images.find((image) => image.fingerprint === fingerprint) ??
        (fingerprint.length >= 12
          ? images.find((image) => image.fingerprint.startsWith(fingerprint))
          : undefined),
      imageByAlias: (alias) => images.find((image) => image.aliases.includes(alias)),
      defaultArchitecture: this.runtime.effective.defaultArchitecture,
    };
  }
}

export function projectOf(runtime: EngineRuntime, name: string): ProjectRecord {
  const project = runtime.model.projects.get(name);
  if (project === undefined) throw notFound(`Project "${name}" not found`);
  return project;
}

/** LXD `CheckTarget`: `@group` or a member, with the project's restrictions. */
export function resolveTarget(
  runtime: EngineRuntime,
  project: ProjectRecord,
  target: string | undefined,
): Target {
  if (target === undefined || target === "") return null;
  const restricted = project.config.restricted === "true";
  if (restricted && project.config["restricted.cluster.target"] === "block") {
    throw forbidden("This project doesn't allow cluster member targeting");
  }
  const allowed = allowedGroupsOf(project);
  if (target.startsWith("@")) {
    const group = target.slice(1);
    if (restricted && allowed.length > 0 && !allowed.includes(group)) {
      throw forbidden(`Project isn't allowed to use this cluster group: "${group}"`);
    }
    if (!runtime.model.groups.has(group)) throw invalid(`Cluster group "${group}" doesn't exist`);
    return { kind: "group", name: group };
  }
  const member = runtime.model.member(target);
  if (member === undefined) throw notFound(`Cluster member "${target}" not found`);
  if (restricted && allowed.length > 0 && !allowed.some((group) => member.record.groups.includes(group))) {
    throw forbidden(`Project isn't allowed to use this cluster member: "${target}"`);
  }
  return { kind: "member", name: target };
}

function placementGroupOf(
  runtime: EngineRuntime,
  project: ProjectRecord,
  request: ExpandedRequest,
): PlacementGroupRecord | null {
  if (request.placementGroup === null) return null;
  const group = runtime.model.placementGroup(project.name, request.placementGroup);
  if (group === undefined) {
    throw notFound(`Placement group "${request.placementGroup}" not found in project "${project.name}"`);
  }
  return group;
}

/**
 * Expansions of create bodies that outlive one request: one client sending
 * the same shape of body over and over (names aside) gets profiles merged
 * and sizes parsed once. An entry is valid only at the change-counter value
 * it was computed under (`EngineRuntime.catalogEpoch`): any profile,
 * flavor, image or config write moves the counter and empties the cache.
 * Entries are shared between placements, so nothing may mutate them
 * (nothing does: records are copied by the store).
 */
export class ExpansionCache {
  private epoch: number | undefined;
  private readonly entries = new Map<string, ExpandedRequest>();

  /** Bounded: clients inventing a new body shape per request cannot grow it without limit. */
  constructor(private readonly maxEntries = 256) {}

  get(epoch: number | undefined, key: string): ExpandedRequest | undefined {
    return epoch !== undefined && epoch === this.epoch ? this.entries.get(key) : undefined;
  }

  set(epoch: number | undefined, key: string, expanded: ExpandedRequest): void {
    if (epoch === undefined) return;
    if (epoch !== this.epoch || this.entries.size >= this.maxEntries) {
      this.entries.clear();
      this.epoch = epoch;
    }
    this.entries.set(key, expanded);
  }
}

/** A project's parsed limits and the cluster groups it may use. */
export interface ProjectFacts {
  limits: ProjectLimits;
  allowedGroups: string[];
}

/** What placements derive from the catalog and keep across requests. */
export interface SharedDerivations {
  expansions: ExpansionCache;
  /**
   * By project record: the model replaces a project's record (never edits
   * it) when the project changes, so an entry can never outlive its source.
   */
  projectFacts: WeakMap<ProjectRecord, ProjectFacts>;
  /** Tells the epoch expansions are valid at. */
  runtime: EngineRuntime;
}

/**
 * What a batch of creates shares (one bulk request): the project's parsed
 * limits and groups, the resolved target, and the expansion of every
 * distinct body shape. A bulk of 10,000 copies of one body (names aside)
 * then parses sizes and merges profiles once, not 10,000 times. Expanded
 * requests are shared between the batch's placements, so nothing may
 * mutate them (nothing does: records are copied by the store).
 */
export class BatchMemo {
  private readonly expansions = new Map<string, ExpandedRequest>();
  private readonly projects: WeakMap<ProjectRecord, ProjectFacts>;
  private readonly targets = new Map<string, Target>();

  /** `shared`: what placements keep across requests (see SharedDerivations). */
  constructor(private readonly shared?: SharedDerivations) {
    this.projects = shared?.projectFacts ?? new WeakMap();
  }

  projectFacts(project: ProjectRecord): ProjectFacts {
    let facts = this.projects.get(project);
    if (facts === undefined) {
      facts = { limits: projectLimitsOf(project), allowedGroups: allowedGroupsOf(project) };
      this.projects.set(project, facts);
    }
    return facts;
  }

  target(runtime: EngineRuntime, project: ProjectRecord, target: string | undefined): Target {
    const key = `${project.name}\u0000${target ?? ""}`;
    let resolved = this.targets.get(key);
    if (resolved === undefined) {
      resolved = resolveTarget(runtime, project, target);
      this.targets.set(key, resolved);
    }
    return resolved;
  }

  async expand(
    catalog: CatalogCache,
    project: ProjectRecord,
    body: InstancesPost,
    name: string,
  ): Promise<ExpandedRequest> {
    // Everything but the name and UUID decides the expansion.
    const { name: _name, uuid: _uuid, ...shape } = body;
    const key = `${project.name}\u0000${JSON.stringify(shape)}`;
    let expanded = this.expansions.get(key);
    if (expanded === undefined) {
      // Read before the catalog: a write landing meanwhile moves the epoch past this entry.
      const epoch = this.shared?.runtime.catalogEpoch();
      expanded = this.shared?.expansions.get(epoch, key);
      if (expanded === undefined) {
        expanded = expandRequest(body, name, await catalog.expansionCatalog(project, body));
        this.shared?.expansions.set(epoch, key, expanded);
      }
      this.expansions.set(key, expanded);
    }
    return expanded.name === name ? expanded : { ...expanded, name };
  }
}

export async function prepareCreate(
  runtime: EngineRuntime,
  catalog: CatalogCache,
  body: InstancesPost,
  projectName: string,
  target: string | undefined,
  memo: BatchMemo = new BatchMemo(),
): Promise<Prepared> {
  const project = projectOf(runtime, projectName);
  const forthcoming = body.forthcoming === true;
  const id = body.uuid ?? randomUUID();
  if (body.uuid !== undefined && !isUuid(id)) throw invalid(`Invalid uuid "${id}"`);
  // Reservations may stay unnamed (Ganeti: only the UUID is mandatory); LXD
  // names unnamed instances itself, Berth derives the name from the UUID.
  const name = body.name ?? (forthcoming ? "" : `instance-${id.slice(0, 8)}`);
  const request = await memo.expand(catalog, project, body, name);
  const { limits, allowedGroups } = memo.projectFacts(project);
  return {
    id,
    project,
    limits,
    allowedGroups,
    request,
    target: memo.target(runtime, project, target),
    placementGroup: placementGroupOf(runtime, project, request),
    forthcoming,
    architecture: body.architecture ?? "",
    description: body.description ?? "",
    ephemeral: body.ephemeral ?? false,
    source: body.source === undefined ? null : (cloneJson(body.source) as Record<string, unknown>),
  };
}

/** Resources an instance holds, from its allocation rows. */
export function resourcesOf(record: InstanceRecord): Record<string, number> {
  const out: Record<string, number> = {};
  for (const row of record.allocations) out[row.resourceClass] = (out[row.resourceClass] ?? 0) + row.amount;
  return out;
}

export function bodyOf(record: InstanceRecord): InstancesPost {
  const body: InstancesPost = {
    name: record.name === "" ? undefined : record.name,
    type: record.type,
    config: { ...record.config },
    devices: cloneDevices(record.devices),
    profiles: [...record.profiles],
    description: record.description,
    ephemeral: record.ephemeral,
  };
  // Stored architectures came from a validated body or a member, so they are wire values.
  if (record.architecture !== "") body.architecture = record.architecture as InstancesPost["architecture"];
  if (record.flavor !== null) body.flavor = record.flavor;
  if (record.instanceType !== null) body.instance_type = record.instanceType;
  return body;
}

/**
 * A stored instance as a placement to re-run (evacuation, relocation,
 * rebalance): its resources are what it holds (its allocations), its
 * architecture its own, traits from its flavor when the flavor still exists.
 */
export async function prepareStored(
  runtime: EngineRuntime,
  catalog: CatalogCache,
  record: InstanceRecord,
  target: string | undefined,
): Promise<Prepared> {
  const project = projectOf(runtime, record.project);
  const body = bodyOf(record);
  let request: ExpandedRequest;
  try {
    request = expandRequest(body, record.name, await catalog.expansionCatalog(project, body));
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    // A profile or flavor it was created with may be gone; it still holds its resources.
    request = expandRequest({ ...body, profiles: [], flavor: undefined }, record.name, {
      profile: () => undefined,
      flavor: () => undefined,
      imageByAlias: () => undefined,
      imageByFingerprint: () => undefined,
      defaultArchitecture: "",
    });
  }
  request = {
    ...request,
    resources: resourcesOf(record),
    limitsUsage: record.limitsUsage,
    architectures: record.architecture === "" ? null : [record.architecture],
    placementGroup: record.placementGroup,
  };
  return {
    id: record.id,
    project,
    limits: projectLimitsOf(project),
    allowedGroups: allowedGroupsOf(project),
    request,
    target: resolveTarget(runtime, project, target),
    placementGroup:
      record.placementGroup === null
        ? null
        : (runtime.model.placementGroup(record.project, record.placementGroup) ?? null),
    forthcoming: record.forthcoming,
    architecture: record.architecture,
    description: record.description,
    ephemeral: record.ephemeral,
    source: record.source,
  };
}
