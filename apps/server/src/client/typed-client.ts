import type {
  apiSchemas,
  BulkCreateResult,
  ClusterGroup,
  ClusterMember,
  ClusterMemberState,
  DryRunResult,
  Flavor,
  Image,
  ImageAliasesEntry,
  Instance,
  Inventory,
  MemberInventories,
  PlacementGroup,
  Profile,
  Project,
  RebalancePlan,
  ResourceClass,
  Resources,
  Server,
  Token,
  TokenCreated,
} from "@berth/api-types";
import type { z } from "zod";
import { type ApiResult, BerthClient, type BerthClientOptions } from "./berth-client.js";
import { type Collection, collection, type ScopeOptions } from "./collection.js";

/** Request bodies as callers write them: fields with server-side defaults may be left out. */
export type In<N extends keyof typeof apiSchemas> = z.input<(typeof apiSchemas)[N]>;

export interface PlaceOptions extends ScopeOptions {
  /** A member name, or `@group`. */
  target?: string;
}

const member = (name: string) => `/1.0/cluster/members/${encodeURIComponent(name)}`;
const instance = (name: string) => `/1.0/instances/${encodeURIComponent(name)}`;

/**
 * The typed berthd client used by the `berth` CLI and third-party tools:
 * one method per route of API.md, bodies and answers typed by @berth/api-types.
 * Works over the Unix socket (default) or TCP/TLS with a bearer token.
 */
export class BerthApi extends BerthClient {
  readonly members: Collection<
    ClusterMember,
    In<"ClusterMembersPost">,
    In<"ClusterMemberPut">,
    In<"ClusterMemberPatch">
  >;
  readonly groups: Collection<
    ClusterGroup,
    In<"ClusterGroupsPost">,
    In<"ClusterGroupPut">,
    In<"ClusterGroupPatch">
  >;
  readonly projects: Collection<Project, In<"ProjectsPost">, In<"ProjectPut">, In<"ProjectPatch">>;
  readonly profiles: Collection<Profile, In<"ProfilesPost">, In<"ProfilePut">, In<"ProfilePatch">>;
  readonly flavors: Collection<Flavor, In<"FlavorsPost">, In<"FlavorPut">, In<"FlavorPatch">>;
  readonly images: Collection<Image, In<"ImagesPost">, In<"ImagePut">, In<"ImagePatch">>;
  readonly imageAliases: Collection<
    ImageAliasesEntry,
    In<"ImageAliasesPost">,
    In<"ImageAliasPut">,
    In<"ImageAliasPatch">
  >;
  readonly placementGroups: Collection<
    PlacementGroup,
    In<"PlacementGroupsPost">,
    In<"PlacementGroupPut">,
    In<"PlacementGroupPatch">
  >;
  readonly resourceClasses: Collection<ResourceClass, In<"ResourceClassesPost">, never, never>;
  readonly instances: Collection<Instance, In<"InstancesPost">, In<"InstancePut">, In<"InstancePatch">>;
  readonly tokens: Collection<Token, In<"TokensPost">, never, never>;

  constructor(options: BerthClientOptions = {}) {
    super(options);
    this.members = collection(this, "/1.0/cluster/members", false, "server_name");
    this.groups = collection(this, "/1.0/cluster/groups", false);
    this.projects = collection(this, "/1.0/projects", false);
    this.profiles = collection(this, "/1.0/profiles", true);
    this.flavors = collection(this, "/1.0/flavors", false);
    this.images = collection(this, "/1.0/images", true);
    this.imageAliases = collection(this, "/1.0/images/aliases", true);
    this.placementGroups = collection(this, "/1.0/placement-groups", true);
    this.resourceClasses = collection(this, "/1.0/resource-classes", false);
    this.instances = collection(this, "/1.0/instances", true);
    this.tokens = collection(this, "/1.0/auth/tokens", false);
  }

  #project(options?: ScopeOptions): string | undefined {
    return options?.project ?? this.project;
  }

  // --- server -----------------------------------------------------------------
  getServer(): Promise<Server> {
    return this.request("GET", "/1.0");
  }
  /** Replaces the whole server config (keys left out are unset). */
  putServerConfig(config: In<"ServerConfig">): Promise<unknown> {
    return this.request("PUT", "/1.0", { body: { config } });
  }
  /** Changes only the given keys; "" unsets one. */
  patchServerConfig(config: In<"ServerConfig">): Promise<unknown> {
    return this.request("PATCH", "/1.0", { body: { config } });
  }
  async openApi(): Promise<Record<string, unknown>> {
    return JSON.parse(await this.getRaw("/1.0/openapi.json")) as Record<string, unknown>;
  }

  // --- members ------------------------------------------------------------------
  getMemberState(name: string): Promise<ClusterMemberState> {
    return this.request("GET", `${member(name)}/state`);
  }
  /** Reports the member's state; doubles as its heartbeat. */
  putMemberState(name: string, state: In<"ClusterMemberState">): Promise<unknown> {
    return this.request("PUT", `${member(name)}/state`, { body: state });
  }
  evacuateMember(name: string): Promise<unknown> {
    return this.request("POST", `${member(name)}/state`, { body: { action: "evacuate" } });
  }
  restoreMember(name: string): Promise<unknown> {
    return this.request("POST", `${member(name)}/state`, { body: { action: "restore" } });
  }
  getMemberResources(name: string): Promise<Resources> {
    return this.request("GET", `${member(name)}/resources`);
  }
  putMemberResources(name: string, resources: In<"Resources">): Promise<unknown> {
    return this.request("PUT", `${member(name)}/resources`, { body: resources });
  }
  getInventories(name: string): Promise<MemberInventories> {
    return this.request("GET", `${member(name)}/inventories`);
  }
  putInventories(name: string, body: In<"InventoriesPut">): Promise<MemberInventories> {
    return this.request("PUT", `${member(name)}/inventories`, { body });
  }
  getInventory(name: string, resourceClass: string): Promise<Inventory> {
    return this.request("GET", `${member(name)}/inventories/${encodeURIComponent(resourceClass)}`);
  }
  putInventory(name: string, resourceClass: string, body: In<"InventoryPut">): Promise<unknown> {
    return this.request("PUT", `${member(name)}/inventories/${encodeURIComponent(resourceClass)}`, { body });
  }
  deleteInventory(name: string, resourceClass: string): Promise<unknown> {
    return this.request("DELETE", `${member(name)}/inventories/${encodeURIComponent(resourceClass)}`);
  }

  // --- rebalancing ----------------------------------------------------------------
  rebalancePlan(): Promise<RebalancePlan> {
    return this.request("GET", "/1.0/cluster/rebalance");
  }
  rebalanceApply(): Promise<unknown> {
    return this.request("POST", "/1.0/cluster/rebalance");
  }

  // --- instances -------------------------------------------------------------------
  /** Creates (and places) one instance; `forthcoming: true` in the body makes a reservation. */
  createInstance(body: In<"InstancesPost">, options: PlaceOptions = {}): Promise<ApiResult<Instance>> {
    return this.call("POST", "/1.0/instances", {
      query: { project: this.#project(options), target: options.target },
      body,
    });
  }
  /** The placement decision without claiming anything (candidates, scriptlet logs and cost). */
  dryRun(body: In<"InstancesPost">, options: PlaceOptions = {}): Promise<DryRunResult> {
    return this.request("POST", "/1.0/instances", {
      query: { project: this.#project(options), target: options.target, dry_run: true },
      body,
    });
  }
  /** All placed or none. */
  bulkCreate(body: In<"BulkCreateRequest">, options: PlaceOptions = {}): Promise<BulkCreateResult> {
    return this.request("POST", "/1.0/instances/bulk", {
      query: { project: this.#project(options), target: options.target },
      body,
    });
  }
  /** Moves an instance (relocation) to a member or `@group`. */
  moveInstance(name: string, target: string, options: ScopeOptions = {}): Promise<Instance> {
    return this.request("POST", instance(name), {
      query: { project: this.#project(options), target },
      body: {},
    });
  }
  /** Turns a reservation (by name or UUID) into an instance. */
  commitReservation(
    nameOrUuid: string,
    body: In<"InstanceCommitPost"> = {},
    options: ScopeOptions = {},
  ): Promise<Instance> {
    return this.request("POST", `${instance(nameOrUuid)}/commit`, {
      query: { project: this.#project(options) },
      body,
    });
  }

  // --- tokens ---------------------------------------------------------------------
  createToken(body: In<"TokensPost">): Promise<TokenCreated> {
    return this.request("POST", "/1.0/auth/tokens", { body });
  }
}
