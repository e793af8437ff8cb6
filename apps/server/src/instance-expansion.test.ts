import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMembers, startTestServer, type TestServer } from "./testing/test-server.fixture.js";

interface Expanded {
  expanded_config: Record<string, string>;
  expanded_devices: Record<string, Record<string, string>>;
}

/**
 * LXD's expansion over HTTP: the answer of the create (POST) and every later
 * read (GET one, GET ?recursion=1) show the same `expanded_config` and
 * `expanded_devices`, whatever the project's `features.profiles` and
 * wherever its profiles live. The engine computes all of them.
 */
describe("instance expansion: POST, GET and list agree", () => {
  let server: TestServer;

  async function call(method: string, path: string, body?: unknown) {
    const response = await server.fetch(path, {
      method,
      token: server.adminToken,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const envelope = (await response.json()) as { error?: string; metadata?: unknown };
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${envelope.error}`);
    return envelope.metadata;
  }

  const pick = (instance: Expanded) => ({
    expanded_config: instance.expanded_config,
    expanded_devices: instance.expanded_devices,
  });

  beforeAll(async () => {
    server = await startTestServer();
    await addMembers(server.tcp(server.adminToken), [{ name: "m1", cpus: 64, memoryMb: 262144 }]);
    // The default project's profiles: what every project without features.profiles uses.
    await call("PATCH", "/1.0/profiles/default", {
      config: { "limits.cpu": "2" },
      devices: { root: { type: "disk", path: "/", pool: "default" } },
    });
    await call("POST", "/1.0/profiles", {
      name: "web",
      config: { "user.tier": "web", "limits.memory": "1GiB" },
      devices: { eth0: { type: "nic", network: "lxdbr0" } },
    });
    // A project that shares the default project's profiles (the "team").
    await call("POST", "/1.0/projects", { name: "team", config: {} });
    // A project with profiles of its own.
    await call("POST", "/1.0/projects", { name: "own", config: { "features.profiles": "true" } });
    await call("POST", "/1.0/profiles?project=own", {
      name: "default",
      config: { "limits.cpu": "4" },
      devices: { root: { type: "disk", path: "/", pool: "fast" } },
    });
    await call("POST", "/1.0/profiles?project=own", {
      name: "web",
      config: { "user.tier": "own-web" },
      devices: { eth0: { type: "nic", network: "ownbr0" } },
    });
  });
  afterAll(() => server.close());

  it("the issue's case: a project without features.profiles, default profile limits.cpu=2", async () => {
    const created = (await call("POST", "/1.0/instances?project=team", { name: "t1" })) as Expanded;
    expect(created.expanded_config).toEqual({ "limits.cpu": "2" });
    const read = (await call("GET", "/1.0/instances/t1?project=team")) as Expanded;
    expect(pick(read)).toEqual(pick(created));
  });

  const projects = ["default", "team", "own"] as const;
  const profileLists: (string[] | undefined)[] = [undefined, [], ["default"], ["default", "web"], ["web"]];
  const overrides = [
    {},
    {
      config: { "limits.cpu": "1", "user.own": "yes" },
      devices: { root: { type: "disk", path: "/", pool: "mine" }, eth1: { type: "nic", network: "x" } },
    },
  ];
  let counter = 0;
  for (const project of projects) {
    for (const profiles of profileLists) {
      for (const [index, override] of overrides.entries()) {
        const label = `${project} / profiles ${JSON.stringify(profiles ?? "(absent)")} / override ${index}`;
        it(label, async () => {
          const name = `i${++counter}`;
          const body = { name, ...(profiles !== undefined ? { profiles } : {}), ...override };
          const created = (await call("POST", `/1.0/instances?project=${project}`, body)) as Expanded;
          const read = (await call("GET", `/1.0/instances/${name}?project=${project}`)) as Expanded;
          const listed = (
            (await call("GET", `/1.0/instances?project=${project}&recursion=1`)) as (Expanded & {
              name: string;
            })[]
          ).find((instance) => instance.name === name);
          expect(pick(read)).toEqual(pick(created));
          expect(listed && pick(listed)).toEqual(pick(created));
          // What LXD shows: the profiles of the project that holds them, in order, own values on top.
          const source = project === "own" ? "own" : "default";
          const named = profiles ?? ["default"];
          const expected: Record<string, string> = {};
          const devices: Record<string, Record<string, string>> = {};
          for (const profile of named) {
            const record = (await call("GET", `/1.0/profiles/${profile}?project=${source}`)) as {
              config: Record<string, string>;
              devices: Record<string, Record<string, string>>;
            };
            Object.assign(expected, record.config);
            Object.assign(devices, record.devices);
          }
          Object.assign(expected, override.config ?? {});
          Object.assign(devices, override.devices ?? {});
          expect(created.expanded_config).toEqual(expected);
          expect(created.expanded_devices).toEqual(devices);
        });
      }
    }
  }

  it("a profile edited after the create shows in later reads (expansion is computed, not stored)", async () => {
    await call("POST", "/1.0/instances?project=team", { name: "later", profiles: ["default", "web"] });
    await call("PATCH", "/1.0/profiles/web", { config: { "user.tier": "edited" } });
    const read = (await call("GET", "/1.0/instances/later?project=team")) as Expanded;
    expect(read.expanded_config["user.tier"]).toBe("edited");
    await call("PATCH", "/1.0/profiles/web", { config: { "user.tier": "web" } });
  });
});
