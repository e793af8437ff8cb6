/**
 * Nobody gets in where they don't belong, against a real berthd
 * over TCP: no token, no access; a project-scoped token cannot see or touch
 * other projects or the server config; secrets never reach the logs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Berthd, createToken } from "../server/berthd.js";
import { smallCluster } from "./cluster.js";
import { recordFigures } from "./figures.js";

const cluster = await smallCluster("access", 2, { VCPU: { total: 64 }, MEMORY_MB: { total: 65536 } }, [
  "team-a",
  "team-b",
]);
const teamToken = await createToken(cluster.db, "team-a-ci", { admin: false, projects: ["team-a"] });
const forgedToken = `berth_${"f".repeat(64)}`;
let server: Berthd;
const checks: { what: string; status: number; expected: number }[] = [];

beforeAll(async () => {
  // debug: as much logging as berthd does, so the secrets check covers it.
  server = await Berthd.start({ db: cluster.db, token: cluster.token, logLevel: "debug" });
  await server.request("PATCH", "/1.0", { config: { "cluster.healing_threshold": "0" } });
  expect((await server.request("POST", "/1.0/instances?project=team-b", { name: "secret-b" })).status).toBe(
    201,
  );
});
afterAll(async () => {
  await server?.stop();
  cluster.cleanup();
});

async function call(token: string | undefined, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      "content-type": "application/json",
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as { metadata?: unknown; error?: string };
  return { status: response.status, json };
}

async function expectStatus(
  what: string,
  token: string | undefined,
  method: string,
  path: string,
  expected: number,
  body?: unknown,
) {
  const { status, json } = await call(token, method, path, body);
  checks.push({ what, status, expected });
  expect(status, `${what}: ${json.error ?? ""}`).toBe(expected);
  return json;
}

describe("access over TCP", () => {
  it("refuses every request without a valid token (401)", async () => {
    for (const [method, path] of [
      ["GET", "/1.0"],
      ["GET", "/1.0/instances"],
      ["POST", "/1.0/instances"],
      ["GET", "/1.0/cluster/members"],
      ["GET", "/1.0/metrics"],
      ["PATCH", "/1.0"],
    ] as const) {
      await expectStatus(
        `no token ${method} ${path}`,
        undefined,
        method,
        path,
        401,
        method === "GET" ? undefined : {},
      );
      await expectStatus(
        `forged token ${method} ${path}`,
        forgedToken,
        method,
        path,
        401,
        method === "GET" ? undefined : {},
      );
      await expectStatus(
        `malformed token ${method} ${path}`,
        "not-a-token",
        method,
        path,
        401,
        method === "GET" ? undefined : {},
      );
    }
  });

  it("keeps a project-scoped token inside its projects and away from server config", async () => {
    await expectStatus(
      "team token creates in its project",
      teamToken,
      "POST",
      "/1.0/instances?project=team-a",
      201,
      {
        name: "mine",
      },
    );
    await expectStatus(
      "team token lists its project",
      teamToken,
      "GET",
      "/1.0/instances?project=team-a",
      200,
    );
    await expectStatus(
      "team token lists another project",
      teamToken,
      "GET",
      "/1.0/instances?project=team-b",
      403,
    );
    await expectStatus(
      "team token reads another project's instance",
      teamToken,
      "GET",
      "/1.0/instances/secret-b?project=team-b",
      403,
    );
    await expectStatus(
      "team token deletes another project's instance",
      teamToken,
      "DELETE",
      "/1.0/instances/secret-b?project=team-b",
      403,
    );
    await expectStatus(
      "team token creates in another project",
      teamToken,
      "POST",
      "/1.0/instances?project=team-b",
      403,
      {
        name: "intruder",
      },
    );
    await expectStatus("team token creates in default", teamToken, "POST", "/1.0/instances", 403, {
      name: "intruder",
    });
    await expectStatus("team token changes server config", teamToken, "PATCH", "/1.0", 403, {
      config: { "instances.placement.scriptlet": "" },
    });
    await expectStatus("team token reads metrics", teamToken, "GET", "/1.0/metrics", 403);
    await expectStatus("team token lists tokens", teamToken, "GET", "/1.0/auth/tokens", 403);
    await expectStatus("team token issues a token", teamToken, "POST", "/1.0/auth/tokens", 403, {
      name: "x",
      projects: ["team-b"],
    });
    await expectStatus("team token adds a member", teamToken, "POST", "/1.0/cluster/members", 403, {
      name: "evil",
    });
    await expectStatus("team token rebalances", teamToken, "POST", "/1.0/cluster/rebalance", 403, {});
    const projects = await expectStatus("team token lists projects", teamToken, "GET", "/1.0/projects", 200);
    expect(JSON.stringify(projects.metadata)).not.toContain("team-b");
    const server10 = await expectStatus("team token reads /1.0", teamToken, "GET", "/1.0", 200);
    const admin10 = await expectStatus("admin reads /1.0", cluster.token, "GET", "/1.0", 200);
    expect(JSON.stringify((admin10.metadata as { config?: unknown }).config)).toContain(
      "cluster.healing_threshold",
    );
    expect(JSON.stringify((server10.metadata as { config?: unknown }).config ?? {})).not.toContain(
      "cluster.",
    );
    // The other project's instance is untouched.
    await expectStatus(
      "admin still sees secret-b",
      cluster.token,
      "GET",
      "/1.0/instances/secret-b?project=team-b",
      200,
    );
  });

  it("never writes a secret to the logs", async () => {
    await server.request("GET", "/1.0/cluster/members");
    const logs = server.output;
    const leaks = [cluster.token, teamToken, forgedToken].filter((secret) => logs.includes(secret.slice(6)));
    recordFigures("access", {
      "access checks": checks.length,
      "checks with the expected status": checks.filter((c) => c.status === c.expected).length,
      "log bytes scanned": logs.length,
      "secrets found in logs": leaks.length,
    });
    expect(logs.length).toBeGreaterThan(1000);
    expect(leaks).toEqual([]);
  });
});
