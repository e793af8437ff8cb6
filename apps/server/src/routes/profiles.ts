import type { Engine, ProfileRecord } from "@berth/engine";
import { instanceUrlOf, profileToWire } from "../wire/catalog.js";
import { resourceUrl } from "../wire/urls.js";
import { defineRoute, type RouteSpec } from "./route-spec.js";

const BASE = "/1.0/profiles";

async function usedBy(engine: Engine, profile: ProfileRecord): Promise<string[]> {
  const instances = await engine.listInstances({ project: profile.project });
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
    handle: async ({ services, params, project }) => ({
      metadata: await toWire(
        services.engine,
        await services.engine.catalog.getProfile(project, params.name ?? ""),
      ),
    }),
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
    errors: [404],
    handle: async ({ services, params, body, project }) => {
      const current = await services.engine.catalog.getProfile(project, params.name ?? "");
      await services.engine.catalog.updateProfile({ ...current, ...body });
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
    errors: [404],
    handle: async ({ services, params, body, project }) => {
      const current = await services.engine.catalog.getProfile(project, params.name ?? "");
      const config = { ...current.config };
      for (const [key, value] of Object.entries(body.config ?? {})) {
        if (value === "") delete config[key];
        else config[key] = value;
      }
      await services.engine.catalog.updateProfile({
        ...current,
        description: body.description ?? current.description,
        config,
        devices: { ...current.devices, ...(body.devices ?? {}) },
      });
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
      const profile = await services.engine.catalog.renameProfile(project, params.name ?? "", body.name);
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
      await services.engine.catalog.deleteProfile(project, params.name ?? "");
      return { metadata: {} };
    },
  }),
];
