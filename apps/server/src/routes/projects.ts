import { type Engine, type ProjectRecord, recordEtag } from "@berth/engine";
import { canUseProject } from "../auth/principal.js";
import { changeProjectBindings, projectHolders as holdersOf } from "../trust/project-bindings.js";
import type { ServerServices } from "./services.js";

const projectHolders = (services: ServerServices) => holdersOf(services.tokens, services.trust.store);

import { instanceUrlOf, projectToWire } from "../wire/catalog.js";
import { resourceUrl } from "../wire/urls.js";
import { defineRoute, type RouteSpec } from "./route-spec.js";

const BASE = "/1.0/projects";

/** LXD `used_by`: the instances and profiles that live in the project. */
async function usedBy(engine: Engine, project: string): Promise<string[]> {
  const instances = await engine.instances.list({ project });
  const profiles = await engine.catalog.listProfiles(project);
  return [
    ...instances.map(instanceUrlOf),
    ...profiles.map((p) => resourceUrl("/1.0/profiles", p.name, project)),
  ];
}

async function toWire(engine: Engine, project: ProjectRecord) {
  return projectToWire(project, await usedBy(engine, project.name));
}

/**
 * Projects: `limits.*`, `restricted`, `restricted.cluster.groups`. A
 * project-scoped token sees only its own projects and cannot change them
 * (limits are the admin's lever on the token's holder).
 */
export const projectRoutes: RouteSpec[] = [
  defineRoute({
    method: "GET",
    path: BASE,
    operationId: "listProjects",
    summary: "List projects (a restricted token sees only its own)",
    tag: "projects",
    access: "any",
    query: ["recursion"],
    handle: async ({ services, recursion, principal }) => {
      const projects = (await services.engine.catalog.listProjects()).filter((p) =>
        canUseProject(principal, p.name),
      );
      if (recursion === 0) return { metadata: projects.map((p) => resourceUrl(BASE, p.name)) };
      return { metadata: await Promise.all(projects.map((p) => toWire(services.engine, p))) };
    },
  }),
  defineRoute({
    method: "POST",
    path: BASE,
    operationId: "createProject",
    summary: "Create a project",
    tag: "projects",
    access: "admin",
    body: "ProjectsPost",
    response: "Project",
    creates: true,
    errors: [409],
    handle: async ({ services, body }) => {
      const project = await services.engine.catalog.createProject({
        name: body.name,
        description: body.description ?? "",
        config: body.config ?? {},
      });
      return {
        metadata: await toWire(services.engine, project),
        status: 201,
        location: resourceUrl(BASE, project.name),
      };
    },
  }),
  defineRoute({
    method: "GET",
    path: `${BASE}/:name`,
    operationId: "getProject",
    summary: "Show a project",
    tag: "projects",
    access: "project",
    projectParam: "name",
    response: "Project",
    errors: [404],
    etag: true,
    handle: async ({ services, params }) => {
      const project = await services.engine.catalog.getProject(params.name);
      return { metadata: await toWire(services.engine, project), etag: recordEtag(project) };
    },
  }),
  defineRoute({
    method: "PUT",
    path: `${BASE}/:name`,
    operationId: "putProject",
    summary: "Replace a project's description and config",
    tag: "projects",
    access: "admin",
    body: "ProjectPut",
    errors: [404, 412],
    etag: true,
    handle: async ({ services, params, body, precondition }) => {
      await services.engine.catalog.replaceProject(params.name, body, precondition);
      return { metadata: {} };
    },
  }),
  defineRoute({
    method: "PATCH",
    path: `${BASE}/:name`,
    operationId: "patchProject",
    summary: 'Change a project\'s description and/or config keys ("" unsets a key)',
    tag: "projects",
    access: "admin",
    body: "ProjectPatch",
    errors: [404, 412],
    etag: true,
    handle: async ({ services, params, body, precondition }) => {
      await services.engine.catalog.patchProject(params.name, body, precondition);
      return { metadata: {} };
    },
  }),
  defineRoute({
    method: "POST",
    path: `${BASE}/:name`,
    operationId: "renameProject",
    summary: "Rename a project (refused while it holds anything)",
    tag: "projects",
    access: "admin",
    body: "ProjectPost",
    creates: true,
    errors: [404, 409],
    operation: {
      description: "Renaming project",
      resources: ({ params }) => ({ projects: [resourceUrl(BASE, params.name)] }),
    },
    handle: async ({ services, params, body }) => {
      // Restricted tokens and certificates follow the project to its new name (project-bindings.ts).
      const project = await changeProjectBindings(
        projectHolders(services),
        params.name,
        () => services.engine.catalog.renameProject(params.name, body.name),
        (renamed) => renamed.name,
      );
      return { metadata: {}, status: 201, location: resourceUrl(BASE, project.name) };
    },
  }),
  defineRoute({
    method: "DELETE",
    path: `${BASE}/:name`,
    operationId: "deleteProject",
    summary: "Delete a project (refused while it holds instances, profiles or placement groups)",
    tag: "projects",
    access: "admin",
    errors: [404, 409],
    handle: async ({ services, params }) => {
      const name = params.name;
      // Restricted tokens and certificates lose the project, so one created later under the name is not theirs.
      await changeProjectBindings(
        projectHolders(services),
        name,
        () => services.engine.catalog.deleteProject(name),
        () => null,
      );
      return { metadata: {} };
    },
  }),
];
