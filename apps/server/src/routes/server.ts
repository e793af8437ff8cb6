import { hostname } from "node:os";
import { type Server, type ServerUntrusted, serverConfigErrorMessage } from "@berth/api-types";
import { isAdmin, type Principal } from "../auth/principal.js";
import { badRequest } from "../http/http-error.js";
import { defineRoute, type RouteSpec } from "./route-spec.js";
import type { ServerServices } from "./services.js";

/** LXD extension names for the features Berth implements. */
export const API_EXTENSIONS = [
  "instances_placement_scriptlet",
  "clustering",
  "clustering_groups",
  "clustering_evacuation",
  "projects",
  "resources",
  "berth_resource_classes",
  "berth_flavors",
  "berth_placement_groups",
  // Placement groups in LXD 6.6's format (config policy/rigor/user.*), what lxc placement-group checks.
  "instance_placement_groups",
  // Placement group config `topology=KEY`: spread/compact per value of member config topology.KEY.
  "berth_placement_group_topology",
  "berth_bulk_create",
  "berth_reservations",
  "berth_dry_run",
  "berth_rebalance",
  // Incus's automatic rebalancing: cluster.rebalance.{interval,threshold,batch,cooldown}, volatile.rebalance.last_move.
  "cluster_rebalance",
  // POST /1.0/instances?dry_run=true honours X-Berth-Scriptlet (base64 source): `berth scriptlet test`.
  "scriptlet_dry_run_source",
  // What LXD's client checks before it uses an endpoint (lxc list, info, init...): Berth serves
  // /1.0/instances (not /1.0/containers), ?filter= on lists, recursion=2 lists and
  // ?recursion=1 instances with their state, member roles, async operations and the events websocket.
  "instances",
  "api_filtering",
  "container_full",
  "instance_get_full",
  "clustering_edit_roles",
  "clustering_failure_domains",
  "operation_wait",
  "events_lifecycle",
  // GET /1.0/instances/NAME/placement: each instance's decision record; dry runs answer `rejections`.
  "berth_placement_records",
  // GET /1.0/cluster/members?recursion=2: members with inventories, usage, capacity and instance counts.
  "berth_cluster_fill",
  // POST /1.0/scriptlet/check: a proposed scriptlet checked without setting it (errors at line and column).
  "berth_scriptlet_check",
  // The web console at /ui/.
  "berth_console",
  // /1.0/certificates: certificate-add tokens (lxc config trust add / lxc remote add TOKEN) and
  // restricted certificates confined to their projects.
  "certificate_token",
  "certificate_project",
  // lxc copy within the cluster: the client sends one POST /1.0/instances with source.type=copy
  // (without it, it tries a migration through POST /1.0/instances/NAME). Berth places the copy.
  "cluster_internal_copy",
  // /1.0/warnings (lxc warning list/show/ack/delete): members offline or evacuated for long,
  // inventories below usage, scriptlet failures; kept in memory by each server.
  "warnings",
] as const;

/**
 * Who is asking (LXD's `auth_user_name` and `auth_user_method`), and Berth's
 * `auth_user_projects`: the projects a restricted token may use, null when
 * every project is allowed (admins and the Unix socket). A client such as
 * the console shows only what the caller may use.
 */
function authUser(
  principal: Exclude<Principal, { kind: "untrusted" }>,
): Pick<Server, "auth_user_name" | "auth_user_method" | "auth_user_projects"> {
  if (principal.kind === "local") {
    return { auth_user_name: "", auth_user_method: "unix", auth_user_projects: null };
  }
  return {
    auth_user_name: principal.name,
    auth_user_method: principal.kind === "certificate" ? "tls" : "bearer",
    auth_user_projects: principal.admin ? null : [...principal.projects],
  };
}

/**
 * After a config change, the daemon applies what acts on itself (the TCP
 * listener's `core.https_address`); when it cannot, the key goes back to
 * what it was and the caller gets LXD's "Cannot set" error.
 */
async function applyToDaemon(services: ServerServices, before: Record<string, string>): Promise<void> {
  if (services.applyServerConfig === undefined) return;
  const after = (await services.engine.config.get()).values;
  const problem = await services.applyServerConfig(after);
  if (problem === undefined) return;
  await services.engine.config.set({ [problem.key]: before[problem.key] ?? null });
  throw badRequest(serverConfigErrorMessage(problem.key, after[problem.key] ?? "", problem.reason));
}

/** Server info and server config (`GET/PUT/PATCH /1.0`). */
export const serverRoutes: RouteSpec[] = [
  defineRoute({
    method: "GET",
    path: "/1.0",
    operationId: "getServer",
    summary:
      "Server info and config (config is shown to admins only); an untrusted HTTPS caller gets LXD's ServerUntrusted fields only",
    tag: "server",
    access: "any",
    readsModel: true,
    response: "Server",
    handle: async ({ services, principal }) => {
      // An HTTPS client berthd does not trust yet (lxc remote add) sees what LXD shows it, nothing more.
      if (principal.kind === "untrusted") {
        const untrusted: ServerUntrusted = {
          api_extensions: [...API_EXTENSIONS],
          api_status: "stable",
          api_version: "1.0",
          auth: "untrusted",
          public: false,
          auth_methods: ["tls"],
        };
        return { metadata: untrusted };
      }
      // A project-scoped token must not read server config (it holds the scriptlet, thresholds...).
      const config = isAdmin(principal) ? (await services.engine.config.get()).values : {};
      const metadata: Server = {
        api_extensions: [...API_EXTENSIONS],
        api_status: "stable",
        api_version: "1.0",
        auth: "trusted",
        ...authUser(principal),
        public: false,
        config,
        environment: {
          server: "berth",
          server_name: hostname(),
          server_version: services.version,
          server_clustered: true,
          // LXD reports its own: Berth's "server" is the cluster.
          architectures: services.engine.members.architectures(),
          server_event_mode: "full-mesh",
        },
      };
      return { metadata };
    },
  }),
  defineRoute({
    method: "PUT",
    path: "/1.0",
    operationId: "putServer",
    summary: "Replace the server config (keys left out are unset); a scriptlet is compiled and checked first",
    tag: "server",
    access: "admin",
    body: "ServerPut",
    errors: [409],
    handle: async ({ services, body }) => {
      const before = (await services.engine.config.get()).values;
      await services.engine.config.replace(body.config);
      await applyToDaemon(services, before);
      return { metadata: {} };
    },
  }),
  defineRoute({
    method: "PATCH",
    path: "/1.0",
    operationId: "patchServer",
    summary: 'Change the given server config keys ("" unsets one); a scriptlet is compiled and checked first',
    tag: "server",
    access: "admin",
    body: "ServerPatch",
    errors: [409],
    handle: async ({ services, body }) => {
      const before = (await services.engine.config.get()).values;
      await services.engine.config.set(body.config);
      await applyToDaemon(services, before);
      return { metadata: {} };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/1.0/cluster",
    operationId: "getCluster",
    summary: "LXD's cluster info: Berth is always a cluster (its members are the ones it places on)",
    tag: "server",
    access: "any",
    handle: () => ({ metadata: { server_name: hostname(), enabled: true, member_config: [] } }),
  }),
];
