import type {
  ApiInput,
  ApiSchemaName,
  AutomaticRebalancePreview,
  BulkCreateResult,
  ClusterCapacity,
  ClusterGroup,
  ClusterMember,
  ClusterMemberFull,
  ClusterMemberState,
  DryRunResult,
  Flavor,
  Image,
  ImageAliasesEntry,
  Instance,
  InstancePlacementRecord,
  Inventory,
  MemberInventories,
  PlacementGroup,
  Profile,
  Project,
  RebalancePlan,
  ResourceClass,
  Resources,
  ScriptletCheckResult,
  Server,
  Token,
  TokenCreated,
} from "@berth/api-types";
import { type ApiResult, BerthClient, type BerthClientOptions } from "./berth-client.js";
import { type Collection, collection, type ScopeOptions } from "./collection.js";

/** Request bodies as callers write them: fields with server-side defaults may be left out. */
export type In<N extends ApiSchemaName> = ApiInput<N>;

/**
 * Where a create may go: the project (from `ScopeOptions`) and an optional target member or group.
 */
export interface PlaceOptions extends ScopeOptions {
  /** A member name, or `@group`. */
  target?: string;
}

/**
 * A dry run's options: those of a create, plus a scriptlet to try instead of the configured one.
 */
export interface DryRunOptions extends PlaceOptions {
  /**
   * Dry-run this scriptlet source instead of the configured one (admins;
   * API extension `scriptlet_dry_run_source`, header `X-Berth-Scriptlet`).
   */
  scriptletSource?: string;
}

/** Base64 of the UTF-8 bytes (the header's encoding), with what every runtime has. */
function base64Utf8(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The typed berthd client used by the `berth` CLI and third-party tools:
 * one method per route of berthd's route table, bodies and answers typed by
 * @berth/api-types, paths from the route table generated from the server.
 * This class runs on any transport; `@berth/client/node`'s `BerthApi` is
 * the same with Node's transports (Unix socket, TLS with a pinned CA).
 */
export class BerthApi extends BerthClient {
  /** Cluster members (`/1.0/cluster/members`); `rename` sets `server_name`. */
  readonly members: Collection<
    ClusterMember,
    In<"ClusterMembersPost">,
    In<"ClusterMemberPut">,
    In<"ClusterMemberPatch">
  >;
  /** Cluster groups (`/1.0/cluster/groups`). */
  readonly groups: Collection<
    ClusterGroup,
    In<"ClusterGroupsPost">,
    In<"ClusterGroupPut">,
    In<"ClusterGroupPatch">
  >;
  /** Projects (`/1.0/projects`). */
  readonly projects: Collection<Project, In<"ProjectsPost">, In<"ProjectPut">, In<"ProjectPatch">>;
  /** Profiles (`/1.0/profiles`), project-scoped. */
  readonly profiles: Collection<Profile, In<"ProfilesPost">, In<"ProfilePut">, In<"ProfilePatch">>;
  /** Nova-style flavors (`/1.0/flavors`): sizes and extra specs an instance can name. */
  readonly flavors: Collection<Flavor, In<"FlavorsPost">, In<"FlavorPut">, In<"FlavorPatch">>;
  /** Images (`/1.0/images`), by fingerprint. */
  readonly images: Collection<Image, In<"ImagesPost">, In<"ImagePut">, In<"ImagePatch">>;
  /** Image aliases (`/1.0/images/aliases`). */
  readonly imageAliases: Collection<
    ImageAliasesEntry,
    In<"ImageAliasesPost">,
    In<"ImageAliasPut">,
    In<"ImageAliasPatch">
  >;
  /**
   * Placement groups (`/1.0/placement-groups`): spread or compact sets of instances, project-
   * scoped.
   */
  readonly placementGroups: Collection<
    PlacementGroup,
    In<"PlacementGroupsPost">,
    In<"PlacementGroupPut">,
    In<"PlacementGroupPatch">
  >;
  /**
   * Resource classes (`/1.0/resource-classes`): only custom ones (`CUSTOM_*`) can be created or
   * deleted.
   */
  readonly resourceClasses: Collection<ResourceClass, In<"ResourceClassesPost">, never, never>;
  /**
   * Instances (`/1.0/instances`), project-scoped; `rename` is LXD's POST (a new name, or a move
   * with a body).
   */
  readonly instances: Collection<Instance, In<"InstancesPost">, In<"InstancePut">, In<"InstancePatch">>;
  /** API tokens (`/1.0/tokens`, admins): `create` answers the secret once. */
  readonly tokens: Collection<Token, In<"TokensPost">, never, never>;

  constructor(options: BerthClientOptions) {
    super(options);
    this.members = collection(this, {
      list: "listMembers",
      create: "createMember",
      get: "getMember",
      put: "putMember",
      patch: "patchMember",
      rename: "renameMember",
      delete: "deleteMember",
      renameField: "server_name",
    });
    this.groups = collection(this, {
      list: "listGroups",
      create: "createGroup",
      get: "getGroup",
      put: "putGroup",
      patch: "patchGroup",
      rename: "renameGroup",
      delete: "deleteGroup",
    });
    this.projects = collection(this, {
      list: "listProjects",
      create: "createProject",
      get: "getProject",
      put: "putProject",
      patch: "patchProject",
      rename: "renameProject",
      delete: "deleteProject",
    });
    this.profiles = collection(this, {
      list: "listProfiles",
      create: "createProfile",
      get: "getProfile",
      put: "putProfile",
      patch: "patchProfile",
      rename: "renameProfile",
      delete: "deleteProfile",
    });
    this.flavors = collection(this, {
      list: "listFlavors",
      create: "createFlavor",
      get: "getFlavor",
      put: "putFlavor",
      patch: "patchFlavor",
      delete: "deleteFlavor",
    });
    this.images = collection(this, {
      list: "listImages",
      create: "createImage",
      get: "getImage",
      put: "putImage",
      patch: "patchImage",
      delete: "deleteImage",
    });
    this.imageAliases = collection(this, {
      list: "listImageAliases",
      create: "createImageAlias",
      get: "getImageAlias",
      put: "putImageAlias",
      patch: "patchImageAlias",
      rename: "renameImageAlias",
      delete: "deleteImageAlias",
    });
    this.placementGroups = collection(this, {
      list: "listPlacementGroups",
      create: "createPlacementGroup",
      get: "getPlacementGroup",
      put: "putPlacementGroup",
      patch: "patchPlacementGroup",
      rename: "renamePlacementGroup",
      delete: "deletePlacementGroup",
    });
    this.resourceClasses = collection(this, {
      list: "listResourceClasses",
      create: "createResourceClass",
      get: "getResourceClass",
      delete: "deleteResourceClass",
    });
    this.instances = collection(this, {
      list: "listInstances",
      create: "createInstance",
      get: "getInstance",
      put: "putInstance",
      patch: "patchInstance",
      rename: "moveOrRenameInstance",
      delete: "deleteInstance",
    });
    this.tokens = collection(this, {
      list: "listTokens",
      create: "createToken",
      get: "getToken",
      delete: "deleteToken",
    });
  }

  #project(options?: ScopeOptions): string | undefined {
    return options?.project ?? this.project;
  }

  // --- server -----------------------------------------------------------------
  /** `GET /1.0`: the server's config, API extensions and who the caller is authenticated as. */
  getServer(): Promise<Server> {
    return this.request("getServer", {}) as Promise<Server>;
  }
  /** Replaces the whole server config (keys left out are unset). */
  putServerConfig(config: In<"ServerConfig">): Promise<unknown> {
    return this.request("putServer", { body: { config } });
  }
  /** Changes only the given keys; "" unsets one. */
  patchServerConfig(config: In<"ServerConfig">): Promise<unknown> {
    return this.request("patchServer", { body: { config } });
  }
  /**
   * Checks a placement scriptlet as setting it would, without setting it:
   * valid, or the error with its line and column (API extension
   * `berth_scriptlet_check`).
   */
  checkScriptlet(source: string): Promise<ScriptletCheckResult> {
    return this.request("checkScriptlet", { body: { source } }) as Promise<ScriptletCheckResult>;
  }
  /** berthd's OpenAPI document (`/1.0/openapi.json`), parsed. */
  async openApi(): Promise<Record<string, unknown>> {
    return JSON.parse(await this.raw("getOpenApi", "application/json")) as Record<string, unknown>;
  }
  /** The Prometheus text of `/1.0/metrics`. */
  metricsText(): Promise<string> {
    return this.raw("getMetrics", "text/plain");
  }

  // --- members ------------------------------------------------------------------
  /**
   * Every member with its inventories' usage and capacity and its instance
   * count, in one request (`?recursion=2`, API extension `berth_cluster_fill`).
   */
  membersFull(): Promise<ClusterMemberFull[]> {
    return this.request("listMembers", { query: { recursion: 2 } }) as Promise<ClusterMemberFull[]>;
  }
  /** The state the member last reported (its heartbeat body). */
  getMemberState(name: string): Promise<ClusterMemberState> {
    return this.request("getMemberState", { params: { name } }) as Promise<ClusterMemberState>;
  }
  /** Reports the member's state; doubles as its heartbeat. */
  putMemberState(name: string, state: In<"ClusterMemberState">): Promise<unknown> {
    return this.request("putMemberState", { params: { name }, body: state });
  }
  /** Moves every instance off the member in one claim and marks it evacuated (all move or none). */
  evacuateMember(name: string): Promise<unknown> {
    return this.request("postMemberState", { params: { name }, body: { action: "evacuate" } });
  }
  /** Brings an evacuated member back and returns the instances that came from it (all or none). */
  restoreMember(name: string): Promise<unknown> {
    return this.request("postMemberState", { params: { name }, body: { action: "restore" } });
  }
  /** The hardware the member last reported (LXD's `api.Resources`). */
  getMemberResources(name: string): Promise<Resources> {
    return this.request("getMemberResources", { params: { name } }) as Promise<Resources>;
  }
  /** Stores the member's hardware report; the standard inventories are derived from it again. */
  putMemberResources(name: string, resources: In<"Resources">): Promise<unknown> {
    return this.request("putMemberResources", { params: { name }, body: resources });
  }
  /** The member's inventories with usage and capacity, and the `generation` a PUT must quote. */
  getInventories(name: string): Promise<MemberInventories> {
    return this.request("getInventories", { params: { name } }) as Promise<MemberInventories>;
  }
  /**
   * Replaces the member's inventories; refused (409) when `generation` is no longer the member's.
   */
  putInventories(name: string, body: In<"InventoriesPut">): Promise<MemberInventories> {
    return this.request("putInventories", { params: { name }, body }) as Promise<MemberInventories>;
  }
  /** One inventory of the member. */
  getInventory(name: string, resourceClass: string): Promise<Inventory> {
    return this.request("getInventory", { params: { name, class: resourceClass } }) as Promise<Inventory>;
  }
  /** Sets one inventory of the member, checked against its `generation`. */
  putInventory(name: string, resourceClass: string, body: In<"InventoryPut">): Promise<unknown> {
    return this.request("putInventory", { params: { name, class: resourceClass }, body });
  }
  /** Removes one inventory; refused while instances or Placement consumers hold the class there. */
  deleteInventory(name: string, resourceClass: string): Promise<unknown> {
    return this.request("deleteInventory", { params: { name, class: resourceClass } });
  }

  // --- rebalancing ----------------------------------------------------------------
  /** The moves that would even the cluster out (Ganeti hbal's greedy loop), without making them. */
  rebalancePlan(): Promise<RebalancePlan> {
    return this.request("planRebalance", {}) as Promise<RebalancePlan>;
  }
  /** Plans and makes the rebalancing moves, in one claim. */
  rebalanceApply(): Promise<unknown> {
    return this.request("applyRebalance", {});
  }
  /** What the next automatic rebalancing run would do (Incus's cluster.rebalance.* rules; nothing moves). */
  rebalanceAutomaticPreview(): Promise<AutomaticRebalancePreview> {
    return this.request("previewAutomaticRebalance", {}) as Promise<AutomaticRebalancePreview>;
  }

  // --- capacity planning -------------------------------------------------------------
  /** How many more instances of this create body fit now, where, and what stops each member (nothing is created). */
  clusterCapacity(body: In<"ClusterCapacityPost">, options: PlaceOptions = {}): Promise<ClusterCapacity> {
    return this.request("clusterCapacity", {
      query: { project: this.#project(options), target: options.target },
      body,
    }) as Promise<ClusterCapacity>;
  }

  // --- instances -------------------------------------------------------------------
  /** Creates (and places) one instance; `forthcoming: true` in the body makes a reservation. */
  createInstance(body: In<"InstancesPost">, options: PlaceOptions = {}): Promise<ApiResult<Instance>> {
    return this.call("createInstance", {
      query: { project: this.#project(options), target: options.target },
      body,
    }) as Promise<ApiResult<Instance>>;
  }
  /** The placement decision without claiming anything (candidates, scriptlet logs and cost). */
  dryRun(body: In<"InstancesPost">, options: DryRunOptions = {}): Promise<DryRunResult> {
    const source = options.scriptletSource;
    return this.request("createInstance", {
      query: { project: this.#project(options), target: options.target, dry_run: true },
      body,
      ...(source !== undefined ? { headers: { "x-berth-scriptlet": base64Utf8(source) } } : {}),
    }) as Promise<DryRunResult>;
  }
  /**
   * Why an instance is on its member: the decision record of its last
   * placement (API extension `berth_placement_records`).
   */
  instancePlacement(name: string, options: ScopeOptions = {}): Promise<InstancePlacementRecord> {
    return this.request("getInstancePlacement", {
      params: { name },
      query: { project: this.#project(options) },
    }) as Promise<InstancePlacementRecord>;
  }
  /** All placed or none. */
  bulkCreate(body: In<"BulkCreateRequest">, options: PlaceOptions = {}): Promise<BulkCreateResult> {
    return this.request("bulkCreateInstances", {
      query: { project: this.#project(options), target: options.target },
      body,
    }) as Promise<BulkCreateResult>;
  }
  /** Moves an instance (relocation) to a member or `@group`. */
  moveInstance(name: string, target: string, options: ScopeOptions = {}): Promise<Instance> {
    return this.request("moveOrRenameInstance", {
      params: { name },
      query: { project: this.#project(options), target },
      body: {},
    }) as Promise<Instance>;
  }
  /** Turns a reservation (by name or UUID) into an instance. */
  commitReservation(
    nameOrUuid: string,
    body: In<"InstanceCommitPost"> = {},
    options: ScopeOptions = {},
  ): Promise<Instance> {
    return this.request("commitReservation", {
      params: { name: nameOrUuid },
      query: { project: this.#project(options) },
      body,
    }) as Promise<Instance>;
  }

  // --- tokens ---------------------------------------------------------------------
  /** Creates an API token (admins); the answer holds its secret, shown this once. */
  createToken(body: In<"TokensPost">): Promise<TokenCreated> {
    return this.request("createToken", { body }) as Promise<TokenCreated>;
  }
}
