/**
 * #17 items 5-9 against the real berthd binary on loopback: deep
 * JSON, project-bound tokens, malformed HTTP, file modes and the bound on
 * request-body memory held by slow clients.
 */
import { statSync } from "node:fs";
import { connect } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { memberResources } from "../cluster/member-spec.js";
import { Berthd } from "../server/berthd.js";
import { smallCluster } from "./cluster.js";
import { recordFigures, sized } from "./figures.js";

const SLOW_CLIENTS = sized(24, 8);
const BODY_MEMORY = 4 * 1024 * 1024;
const SLOW_BODY = 900 * 1024;

const cluster = await smallCluster("hardening", 2, { VCPU: { total: 64 }, MEMORY_MB: { total: 262144 } });
afterAll(() => cluster.cleanup());

/** Opens a connection and writes `bytes`; what the server answers accumulates. */
function raw(url: string, bytes: string) {
  const { hostname, port } = new URL(url);
  let answer = "";
  const socket = connect(Number(port), hostname, () => socket.write(bytes));
  socket.on("data", (chunk: Buffer) => {
    answer += chunk.toString("utf8");
  });
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  return {
    answer: () => answer,
    /** Everything the server wrote, once it closed the connection. */
    text: closed.then(() => answer),
    destroy: () => socket.destroy(),
  };
}

const secretOf = (answer: { json: { metadata?: unknown } }) =>
  String((answer.json.metadata as { secret: string }).secret);
const statusLine = (answer: string) => answer.split("\r\n")[0] ?? "";
const envelopeOf = (answer: string) =>
  JSON.parse(answer.split("\r\n\r\n")[1] ?? "null") as { error_code: number; error: string };

describe("hardening against a real berthd (#17 items 5-9)", () => {
  it("refuses deep JSON, malformed HTTP, tokens for missing projects and body hoarding; keeps its files private", async () => {
    const server = await Berthd.start({
      db: cluster.db,
      token: cluster.token,
      logLevel: "warn",
      env: { BERTH_BODY_MEMORY: String(BODY_MEMORY) },
    });
    const figures: Record<string, string | number | boolean> = {};
    try {
      // Item 5: nesting in a member's free-form hardware records.
      const depths = [100, 999, 10_000];
      const deepStatuses: number[] = [];
      for (const depth of depths) {
        const body = JSON.stringify(memberResources(0)).replace(
          '"system":{',
          `"system":{"deep":${'{"a":'.repeat(depth)}1${"}".repeat(depth)},`,
        );
        const answer = await server.request("PUT", "/1.0/cluster/members/node1/resources", body);
        deepStatuses.push(answer.status);
        expect(answer.status).toBe(400);
        expect(answer.json.error).toBe(
          "Request body nests too deeply: the limit is 64 levels of objects and arrays",
        );
      }
      figures["deep JSON (100, 999, 10000 levels): statuses"] = deepStatuses.join(", ");

      // Item 8: the parser's refusals in the LXD envelope.
      const badLine = await raw(server.url, "GARBAGE\r\n\r\n").text;
      expect(statusLine(badLine)).toBe("HTTP/1.1 400 Bad Request");
      expect(envelopeOf(badLine)).toMatchObject({
        error_code: 400,
        error: "Malformed HTTP request: invalid method",
      });
      const bigHeaders = await raw(
        server.url,
        `GET /1.0 HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
      ).text;
      expect(statusLine(bigHeaders)).toBe("HTTP/1.1 431 Request Header Fields Too Large");
      expect(envelopeOf(bigHeaders)).toMatchObject({ error_code: 431 });
      figures["malformed HTTP: bad request line / oversized headers"] =
        `${statusLine(badLine)} / ${statusLine(bigHeaders)} (LXD envelope)`;

      // Item 6: tokens only for existing projects, and not for a name reused after a delete.
      const missing = await server.request("POST", "/1.0/auth/tokens", {
        name: "early",
        projects: ["later"],
      });
      expect(missing.status).toBe(404);
      expect((await server.request("POST", "/1.0/projects", { name: "gone" })).status).toBe(201);
      const issued = await server.request("POST", "/1.0/auth/tokens", {
        name: "gone-team",
        projects: ["gone"],
      });
      expect(issued.status).toBe(201);
      const secret = String((issued.json.metadata as { secret: string }).secret);
      expect((await server.request("DELETE", "/1.0/projects/gone")).status).toBe(200);
      expect((await server.request("POST", "/1.0/projects", { name: "gone" })).status).toBe(201);
      const reused = await fetch(`${server.url}/1.0/instances?project=gone`, {
        headers: { authorization: `Bearer ${secret}` },
      });
      expect(reused.status).toBe(403);
      figures["token for a missing project / for a deleted-then-recreated one"] =
        `${missing.status} / ${reused.status}`;

      // Item 7: a project-scoped token learns nothing from another project's instance UUID.
      const hiddenUuid = "0b5f3d1c-3c0b-4e56-9d7e-4f6b2a1c9e10";
      expect(
        (await server.request("POST", "/1.0/instances", { name: "hidden", uuid: hiddenUuid })).status,
      ).toBe(201);
      const attempts = await Promise.all(
        [hiddenUuid, "7d9c2e4a-1b3f-4a6d-8e5c-9f0a1b2c3d4e"].map(async (uuid) => {
          const response = await fetch(`${server.url}/1.0/instances?project=gone`, {
            method: "POST",
            headers: {
              authorization: `Bearer ${secretOf(await server.request("POST", "/1.0/auth/tokens", { name: `probe-${uuid.slice(0, 4)}`, projects: ["gone"] }))}`,
              "content-type": "application/json",
            },
            body: JSON.stringify({ name: `p${uuid.slice(0, 4)}`, uuid }),
          });
          return `${response.status} ${((await response.json()) as { error: string }).error}`;
        }),
      );
      expect(attempts[0]).toBe(attempts[1]);
      expect(attempts[0]).toMatch(/^403 /);
      figures["another project's UUID / a free UUID, project-scoped token"] = attempts
        .map((a) => a.slice(0, 3))
        .join(" / ");

      // Item 9: slow authenticated clients each hold most of a body; the total is bounded.
      const slow = Array.from({ length: SLOW_CLIENTS }, () =>
        raw(
          server.url,
          `POST /1.0/instances HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${cluster.token}\r\nContent-Type: application/json\r\nContent-Length: ${SLOW_BODY + 1024}\r\n\r\n${" ".repeat(SLOW_BODY)}`,
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const refused = slow.filter(
        (c) => statusLine(c.answer()) === "HTTP/1.1 503 Service Unavailable",
      ).length;
      const alive = await server.request("GET", "/1.0");
      for (const client of slow) client.destroy();
      const held = SLOW_CLIENTS - refused;
      figures[`slow clients holding ${SLOW_BODY} bytes each / refused with 503 (budget ${BODY_MEMORY})`] =
        `${SLOW_CLIENTS} / ${refused}`;
      expect(held * SLOW_BODY).toBeLessThanOrEqual(BODY_MEMORY);
      expect(refused).toBeGreaterThan(0);
      expect(alive.status).toBe(200);
      const modes = [cluster.db, `${cluster.db}-wal`, `${cluster.db}-shm`].map(
        (file) => `${file.split("/").at(-1)} ${(statSync(file).mode & 0o777).toString(8)}`,
      );
      figures["database file modes"] = modes.join(", ");
      expect(modes.every((m) => m.endsWith(" 600"))).toBe(true);
    } finally {
      await server.stop();
      recordFigures("hardening (#17 items 5-9)", figures);
    }
  });
});
