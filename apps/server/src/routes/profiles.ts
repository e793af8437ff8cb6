import { type Engine, type ProfileRecord, recordEtag } from "@berth/engine";
import { instanceUrlOf, profileToWire } from "../wire/catalog.js";
import { resourceUrl } from "../wire/urls.js";
import { defineRoute, type RouteSpec } from "./route-spec.js";

const BASE = "/1.0/profiles";

async function usedBy(engine: Engine, profile: ProfileRecord): Promise<string[]> {
  const instances = await engine.instances.list({ project: profile.project });
  return instances.filter((i) => i.profiles.includes(profile.name)).map(instanceUrlOf);
}

async function toWire(engine: Engine, profile: ProfileRecord) {
  return profileToWire(profile, await usedBy(engine, profile));
}

/** Profiles: config and devices merged into instances in profile order (project-scoped). */
export const profileRoutes: RouteSpec[] = [
  defineRoute({
    method: "GET",
    path: BASE,
    operationId: "listProfiles",
    summary: "List the project's profiles",
    tag: "profiles",
    access: "project",
    query: ["recursion", "project"],
    handle: async ({ services, recursion, project }) => {
      await services.engine.catalog.getProject(project); // 404 for an unknown project, not an empty list
      const profiles = await services.engine.catalog.listProfiles(project);
      if (recursion === 0) return { metadata: profiles.map((p) => resourceUrl(BASE, p.name, project)) };
      return { metadata: await Promise.all(profiles.map((p) => toWire(services.engine, p))) };
    },
  }),
  defineRoute({
    method: "POST",
    path: BASE,
    operationId: "createProfile",
    summary: "Create a profile",
    tag: "profiles",
    access: "project",
    query: ["project"],
    body: "ProfilesPost",
    response: "Profile",
    creates: true,
    errors: [404, 409],
    handle: async ({ services, body, project }) => {
      await services.engine.catalog.getProject(project);
      const profile = await services.engine.catalog.createProfile({
        project,
        name: body.name,
        description: body.description ?? "",
        config: body.config ?? {},
        devices: body.devices ?? {},
      });
      return {
        metadata: profileToWire(profile, []),
        status: 201,
        location: resourceUrl(BASE, profile.name, project),
      };
    },
  }),
  defineRoute({
    method: "GET",
    path: `${BASE}/:name`,
    operationId: "getProfile",
    summary: "Show a profile",
    tag: "profiles",
    access: "project",
    query: ["project"],
    response: "Profile",
    errors: [404],
    etag: true,
    handle: async ({ services, params, project }) => {
      const profile = await services.engine.catalog.getProfile(project, params.name);
      return { metadata: await toWire(services.engine, profile), etag: recordEtag(profile) };
    },
  }),
  defineRoute({
    method: "PUT",
    path: `${BASE}/:name`,
    operationId: "putProfile",
    summary: "Replace a profile (existing instances keep their placement)",
    tag: "profiles",
    access: "project",
    query: ["project"],
    body: "ProfilePut",
    errors: [404, 412],
    etag: true,
    handle: async ({ services, params, body, project, precondition }) => {
      await services.engine.catalog.replaceProfile(project, params.name, body, precondition);
      return { metadata: {} };
    },
  }),
  defineRoute({
    method: "PATCH",
    path: `${BASE}/:name`,
    operationId: "patchProfile",
    summary: 'Change a profile: config keys and devices merge, "" unsets a config key',
    tag: "profiles",
    access: "project",
    query: ["project"],
    body: "ProfilePatch",
    errors: [404, 412],
    etag: true,
    handle: async ({ services, params, body, project, precondition }) => {
      await services.engine.catalog.patchProfile(project, params.name, body, precondition);
      return { metadata: {} };
    },
  }),
  defineRoute({
    method: "POST",
    path: `${BASE}/:name`,
    operationId: "renameProfile",
    summary: "Rename a profile (refused for default and while instances use it)",
    tag: "profiles",
    access: "project",
    query: ["project"],
    body: "ProfilePost",
    creates: true,
    errors: [404, 409],
    handle: async ({ services, params, body, project }) => {
      const profile = await services.engine.catalog.renameProfile(project, params.name, body.name);
      return { metadata: {}, status: 201, location: resourceUrl(BASE, profile.name, project) };
    },
  }),
  defineRoute({
    method: "DELETE",
    path: `${BASE}/:name`,
    operationId: "deleteProfile",
    summary: "Delete a profile (refused for default and while instances use it)",
    tag: "profiles",
    access: "project",
    query: ["project"],
    errors: [404, 409],
    handle: async ({ services, params, project }) => {
      await services.engine.catalog.deleteProfile(project, params.name);
      return { metadata: {} };
    },
  }),
];
