import type { BulkCreateResult, Instance } from "@berth/api-types";
import type { Engine, InstanceRecord } from "@berth/engine";
import { badRequest, notFoundHttp } from "../http/http-error.js";
import { matchesLxdFilter, parseLxdFilter } from "../http/lxd-filter.js";
import { proposedScriptlet, SCRIPTLET_HEADER } from "../http/scriptlet-header.js";
import { instanceUrlOf } from "../wire/catalog.js";
import { dryRunToWire } from "../wire/dry-run.js";
import { instanceFullToWire, instanceStateToWire, instanceToWire } from "../wire/instances.js";
import { placementRecordToWire } from "../wire/placement-record.js";
import { resourceUrl } from "../wire/urls.js";
import { refuseChosenUuids } from "./chosen-uuid.js";
import { defineRoute, type RouteInput, type RouteSpec } from "./route-spec.js";

/** Instances on the wire, expanded by the engine with their profiles as they are now. */
async function wireOf(engine: Engine, records: InstanceRecord[], full = false): Promise<Instance[]> {
  const expansions = await engine.instances.expandMany(records);
  const wire = full ? instanceFullToWire : instanceToWire;
  return records.map((record, i) => wire(record, expansions[i]!));
}

/** Berth decides where instances go; running them is LXD's (or Incus's) job on the member. */
function notRunHere(what: string): Error {
  return badRequest(
    `Berth places instances and does not run them: ${what} is done by LXD or Incus on the instance's member`,
  );
}

async function wireOne(engine: Engine, record: InstanceRecord): Promise<Instance> {
  return instanceToWire(record, await engine.instances.expand(record));
}

const instance = "/1.0/instances/:name";

/**
 * The engine's options for a placement of this request: project, target,
 * and the client's signal, read only if a scriptlet runs (the getter keeps
 * it unmade otherwise, see http/client-signal.ts).
 */
function engineOptions<Extra extends object>(
  input: Pick<RouteInput<unknown>, "project" | "target" | "signal">,
  extra?: Extra,
) {
  return {
    ...extra,
    project: input.project,
    ...(input.target !== undefined ? { target: input.target } : {}),
    get signal(): AbortSignal {
      return input.signal;
    },
  };
}

/** The operation resources of a request on one instance. */
function instanceResources({ params, project }: { params: Record<string, string>; project: string }) {
  return { instances: [resourceUrl("/1.0/instances", params.name ?? "", project)] };
}

/** Instances and reservations: create (with dry run), bulk, edit, rename, move, commit, delete. */
export const instanceRoutes: RouteSpec[] = [
  defineRoute({
    method: "GET",
    path: "/1.0/instances",
    operationId: "listInstances",
    summary:
      "List the project's instances and reservations (?filter= in LXD's syntax, e.g. location eq node1; ?recursion=2 adds each one's state)",
    tag: "instances",
    access: "project",
    query: ["recursion", "project", "filter"],
    handle: async ({ services, recursion, project, query }) => {
      await services.engine.catalog.getProject(project); // 404 for an unknown project, not an empty list
      const filter = parseLxdFilter(query("filter"));
      const records = await services.engine.instances.list({ project });
      if (filter === undefined && recursion === 0) return { metadata: records.map(instanceUrlOf) };
      let wire = await wireOf(services.engine, records, recursion === 2);
      if (filter !== undefined) wire = wire.filter((one) => matchesLxdFilter(filter, one));
      if (recursion === 0)
        return {
          metadata: wire.map((one) => instanceUrlOf({ name: one.name, project: one.project, id: one.uuid })),
        };
      return { metadata: wire };
    },
  }),
  defineRoute({
    method: "POST",
    path: "/1.0/instances",
    operationId: "createInstance",
    summary:
      "Place and create one instance (forthcoming: true makes a reservation); ?target=member|@group; ?dry_run=true decides without claiming (admins: header X-Berth-Scriptlet = base64 scriptlet source dry-runs that scriptlet instead of the configured one)",
    tag: "instances",
    access: "project",
    query: ["project", "target", "dry_run"],
    body: "InstancesPost",
    response: "Instance",
    creates: true,
    errors: [404, 409, 507],
    operation: {
      description: "Creating instance",
      failurePrefix: "Failed instance creation: ",
      resources: ({ body, project }) => ({
        instances: body.name !== undefined ? [resourceUrl("/1.0/instances", body.name, project)] : [],
      }),
    },
    handle: async (input) => {
      const { services, body, dryRun, principal, header } = input;
      refuseChosenUuids(principal, [body]);
      const scriptletSource = proposedScriptlet(header(SCRIPTLET_HEADER), dryRun, principal);
      if (dryRun) {
        const outcome = await services.engine.instances.dryRun(
          body,
          engineOptions(input, scriptletSource !== undefined ? { scriptletSource } : {}),
        );
        return { metadata: dryRunToWire(outcome) };
      }
      const outcome = await services.engine.instances.create(body, engineOptions(input));
      const record = outcome.instance;
      return {
        // The placement read the profiles already: its outcome carries the expansion.
        metadata: instanceToWire(record, outcome.expanded),
        status: 201,
        location: instanceUrlOf(record),
      };
    },
  }),
  defineRoute({
    method: "POST",
    path: "/1.0/instances/bulk",
    operationId: "bulkCreateInstances",
    summary: "Place many instances: all of them land or none does (the error names the first that failed)",
    tag: "instances",
    access: "project",
    query: ["project", "target"],
    body: "BulkCreateRequest",
    response: "BulkCreateResult",
    errors: [404, 409, 507],
    handle: async (input) => {
      const { services, body, principal } = input;
      refuseChosenUuids(principal, body.instances);
      const outcome = await services.engine.instances.bulkCreate(body.instances, engineOptions(input));
      const result: BulkCreateResult = {
        placements: outcome.instances.map((r) => ({ name: r.name, uuid: r.id, location: r.location })),
      };
      return { metadata: result };
    },
  }),
  defineRoute({
    method: "GET",
    path: instance,
    operationId: "getInstance",
    summary: "Show an instance (reservations also by UUID); ?recursion=1 adds its state (LXD InstanceFull)",
    tag: "instances",
    access: "project",
    query: ["project", "recursion"],
    response: "Instance",
    errors: [404],
    handle: async ({ services, params, project, recursion }) => {
      const record = await services.engine.instances.get(project, params.name);
      if (recursion > 0)
        return { metadata: instanceFullToWire(record, await services.engine.instances.expand(record)) };
      return { metadata: await wireOne(services.engine, record) };
    },
  }),
  defineRoute({
    method: "GET",
    path: `${instance}/state`,
    operationId: "getInstanceState",
    summary: "An instance's state: its placement status; Berth runs nothing, so no processes or usage",
    tag: "instances",
    access: "project",
    query: ["project"],
    errors: [404],
    handle: async ({ services, params, project }) => {
      const record = await services.engine.instances.get(project, params.name);
      return { metadata: instanceStateToWire(record) };
    },
  }),
  defineRoute({
    method: "PUT",
    path: `${instance}/state`,
    operationId: "putInstanceState",
    summary: "Refused: start, stop, restart, freeze are LXD's work on the member (400 saying so)",
    tag: "instances",
    access: "project",
    query: ["project"],
    errors: [404],
    handle: async ({ services, params, project }) => {
      await services.engine.instances.get(project, params.name); // an unknown instance is still a 404
      throw notRunHere("changing its state (start, stop, restart, freeze)");
    },
  }),
  defineRoute({
    method: "POST",
    path: `${instance}/exec`,
    operationId: "execInstance",
    summary: "Refused: running commands is LXD's work on the member (400 saying so)",
    tag: "instances",
    access: "project",
    query: ["project"],
    errors: [404],
    handle: async ({ services, params, project }) => {
      await services.engine.instances.get(project, params.name);
      throw notRunHere("running commands (exec)");
    },
  }),
  defineRoute({
    method: "GET",
    path: `${instance}/placement`,
    operationId: "getInstancePlacement",
    summary:
      "Why the instance is on its member: the decision record of its last placement (candidates, rejections grouped by reason, the scriptlet's log, which policy decided)",
    tag: "instances",
    access: "project",
    query: ["project"],
    response: "InstancePlacementRecord",
    errors: [404],
    handle: async ({ services, params, project }) => {
      const record = await services.engine.instances.get(project, params.name);
      if (record.decision === null) {
        throw notFoundHttp(
          `No placement decision is recorded for instance "${params.name}" in project "${project}" (it was stored before decisions were recorded)`,
        );
      }
      return { metadata: placementRecordToWire(record, record.decision) };
    },
  }),
  defineRoute({
    method: "PUT",
    path: instance,
    operationId: "putInstance",
    summary: "Replace an instance's editable fields (re-checked against its member's capacity)",
    tag: "instances",
    access: "project",
    query: ["project"],
    body: "InstancePut",
    errors: [404, 409, 507],
    operation: { description: "Updating instance", resources: instanceResources },
    handle: async ({ services, params, body, project }) => {
      await services.engine.instances.update(project, params.name, body, "put");
      return { metadata: {} };
    },
  }),
  defineRoute({
    method: "PATCH",
    path: instance,
    operationId: "patchInstance",
    summary: "Change some of an instance's editable fields",
    tag: "instances",
    access: "project",
    query: ["project"],
    body: "InstancePatch",
    errors: [404, 409, 507],
    operation: { description: "Updating instance", resources: instanceResources },
    handle: async ({ services, params, body, project }) => {
      await services.engine.instances.update(project, params.name, body, "patch");
      return { metadata: {} };
    },
  }),
  defineRoute({
    method: "POST",
    path: instance,
    operationId: "moveOrRenameInstance",
    summary: 'With ?target=member|@group: move (relocation); with {"name": ...}: rename',
    tag: "instances",
    access: "project",
    query: ["project", "target"],
    body: "InstancePost",
    errors: [404, 409, 507],
    operation: { description: "Migrating instance", resources: instanceResources },
    handle: async (input) => {
      const { services, params, body: given, project, target } = input;
      const ref = params.name;
      // LXD's client sends `"name": ""` (Go's zero value) when it means no rename.
      const body = given.name === "" ? { ...given, name: undefined } : given;
      if (
        body.migration === true &&
        target === undefined &&
        body.name === undefined &&
        body.target === undefined
      )
        throw badRequest(
          "Migrating an instance out of Berth is not supported: Berth places instances and holds none of their data; copy or move it from the LXD member that runs it",
        );
      if (body.target !== undefined)
        throw badRequest(
          "Migrating an instance to another server is not supported: Berth moves instances between its members with ?target=",
        );
      if (body.project !== undefined && body.project !== "" && body.project !== project) {
        throw badRequest(
          'Moving an instance to another project is not supported: "project" must be the current one',
        );
      }
      if (target !== undefined) {
        if (body.name !== undefined && body.name !== ref) {
          throw badRequest('Rename and move are separate requests: drop "name" or "?target="');
        }
        const moved = await services.engine.instances.move(project, ref, target, engineOptions(input));
        return { metadata: await wireOne(services.engine, moved.instance) };
      }
      if (body.name === undefined) {
        throw badRequest('Nothing to do: give ?target= to move the instance or "name" to rename it');
      }
      const renamed = await services.engine.instances.rename(project, ref, body.name);
      return {
        metadata: await wireOne(services.engine, renamed),
        status: 201,
        location: instanceUrlOf(renamed),
      };
    },
  }),
  defineRoute({
    method: "DELETE",
    path: instance,
    operationId: "deleteInstance",
    summary: "Delete an instance or reservation, freeing its resources",
    tag: "instances",
    access: "project",
    query: ["project"],
    errors: [404],
    operation: { description: "Deleting instance", resources: instanceResources },
    handle: async ({ services, params, project }) => {
      await services.engine.instances.delete(project, params.name);
      return { metadata: {} };
    },
  }),
  defineRoute({
    method: "POST",
    path: `${instance}/commit`,
    operationId: "commitReservation",
    summary: "Turn a reservation (by name or UUID) into a real instance; never fails for capacity",
    tag: "instances",
    access: "project",
    query: ["project"],
    body: "InstanceCommitPost",
    bodyOptional: true,
    response: "Instance",
    errors: [404, 409],
    handle: async ({ services, params, body, project }) => {
      const record = await services.engine.instances.commitReservation(
        project,
        params.name,
        body.name !== undefined ? { name: body.name } : {},
      );
      return { metadata: await wireOne(services.engine, record) };
    },
  }),
];
