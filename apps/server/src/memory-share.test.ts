/**
 * Issue #15 item 8 over HTTP: `limits.memory` as a percentage of the
 * member's memory (`50%`, valid in LXD and common in profiles) is sized
 * against each candidate member's memory, as LXD sizes it when it applies
 * the limit there: `(MemTotal / 100) * percent`, then MEMORY_MB rounded up
 * to whole MiB. Creation, a named target, moves, evacuation and restore,
 * the scriptlet's get_instance_resources(), project limits and config
 * validation each see the same rule.
 */
import { ManualClock } from "@berth/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  dryRunLogs,
  expectRefusal,
  memberResources,
  memberState,
  startTestServer,
  type TestServer,
} from "./testing/test-server.fixture.js";

const GiB = 1024 ** 3;
/** LXD's share: the division first, truncated. */
const half = (bytes: number) => Math.floor(bytes / 100) * 50;

describe("limits.memory as a percentage of the member's memory", () => {
  const clock = new ManualClock("2026-11-24T12:00:00Z");
  let server: TestServer;

  const call = (method: string, path: string, body?: unknown) => server.call(method, path, body);

  /** MEMORY_MB used on `member` (real instances), as the API shows it. */
  async function memoryUsed(member: string): Promise<number> {
    const answer = await call("GET", `/1.0/cluster/members/${member}/inventories/MEMORY_MB`);
    expect(answer.status).toBe(200);
    return answer.body.metadata.used as number;
  }

  async function locationOf(name: string): Promise<string> {
    return (await call("GET", `/1.0/instances/${name}`)).body.metadata.location as string;
  }

  beforeAll(async () => {
    server = await startTestServer({ clock });
    // Shares are counted against memory exactly here: no overcommit of the derived MEMORY_MB.
    expect(
      (await call("PATCH", "/1.0", { config: { "scheduler.ram_allocation_ratio": "1.0" } })).status,
    ).toBe(200);
    // m16 and m8 report 16 and 8 GiB; m32 reports 32 GiB but its operator gave instances only 4 GiB of it.
    for (const [name, gib] of [
      ["m16", 16],
      ["m8", 8],
      ["m32", 32],
    ] as const) {
      expect(
        (await call("POST", "/1.0/cluster/members", { server_name: name, architecture: "x86_64" })).status,
      ).toBe(201);
      expect(
        (await call("PUT", `/1.0/cluster/members/${name}/resources`, memberResources(8, gib))).status,
      ).toBe(200);
      await server.local().putMemberState(name, memberState(gib * 1024) as never);
    }
    const { generation } = (await call("GET", "/1.0/cluster/members/m32/inventories")).body.metadata;
    expect(
      (
        await call("PUT", "/1.0/cluster/members/m32/inventories", {
          generation,
          inventories: { MEMORY_MB: { total: 4096 } },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call("POST", "/1.0/profiles", {
          name: "half",
          config: { "limits.memory": "50%", "limits.cpu": "1" },
          devices: {},
        })
      ).status,
    ).toBe(201);
  });
  afterAll(() => server.close());

  it("the scriptlet sees the share sized on each candidate, and the largest share without a name", async () => {
    const source = [
      "def instance_placement(request, candidate_members):",
      '    log_info("any=", get_instance_resources().memory_size)',
      "    for m in candidate_members:",
      "        on = get_instance_resources(m.server_name)",
      "        by_keyword = get_instance_resources(member_name=m.server_name)",
      '        log_info(m.server_name, "=", on.memory_size, "/", by_keyword.resource_classes["MEMORY_MB"])',
    ].join("\n");
    const logs = await dryRunLogs(server, source, { name: "probe", profiles: ["half"] });
    // m32 is no candidate: half of its 32 GiB does not fit the 4 GiB its inventory offers.
    expect(logs).toEqual([`any=${half(16 * GiB)}`, `m16=${half(16 * GiB)}/8192`, `m8=${half(8 * GiB)}/4096`]);
  });

  it("a create with a 50% profile lands and counts the share of the chosen member", async () => {
    const first = await call("POST", "/1.0/instances", { name: "h1", profiles: ["half"] });
    expect(first.status).toBe(201);
    expect(first.body.metadata.location).toBe("m16");
    expect(first.body.metadata.expanded_config["limits.memory"]).toBe("50%");
    expect(await memoryUsed("m16")).toBe(8192);

    // m32 has the fewest instances but too little room for half of its memory: m8 takes the next.
    const second = await call("POST", "/1.0/instances", { name: "h2", profiles: ["half"] });
    expect(second.status).toBe(201);
    expect(second.body.metadata.location).toBe("m8");
    expect(await memoryUsed("m8")).toBe(4096);
    expect(await memoryUsed("m32")).toBe(0);
  });

  it("a member too small for its share is turned down, named or not", async () => {
    await expectRefusal(
      server,
      { method: "POST", path: "/1.0/instances?target=m32", body: { name: "t1", profiles: ["half"] } },
      507,
      'Cluster member "m32" can\'t take instance "t1" in project "default": it has too little MEMORY_MB',
    );
    // 75% of m8's 8 GiB no longer fits beside h2; of m16's 16 GiB it does not fit beside h1.
    const big = await call("POST", "/1.0/instances", { name: "t2", config: { "limits.memory": "75%" } });
    expect(big.status).toBe(507);
    expect(big.body.error).toContain("have too little MEMORY_MB");
  });

  it("a move sizes the share again on the target member", async () => {
    expect((await call("POST", "/1.0/instances/h2?target=m16", {})).status).toBe(200);
    expect(await locationOf("h2")).toBe("m16");
    expect(await memoryUsed("m16")).toBe(16384);
    expect(await memoryUsed("m8")).toBe(0);

    expect((await call("POST", "/1.0/instances/h2?target=m8", {})).status).toBe(200);
    expect(await memoryUsed("m16")).toBe(8192);
    expect(await memoryUsed("m8")).toBe(4096);
  });

  it("evacuation and restore size the share on the member each instance goes to", async () => {
    expect((await call("POST", "/1.0/cluster/members/m16/state", { action: "evacuate" })).status).toBe(200);
    const moved = (await call("GET", "/1.0/instances/h1")).body.metadata;
    expect(moved.location).toBe("m8");
    expect(moved.config["volatile.evacuate.origin"]).toBe("m16");
    expect(await memoryUsed("m8")).toBe(8192);
    expect(await memoryUsed("m16")).toBe(0);

    expect((await call("POST", "/1.0/cluster/members/m16/state", { action: "restore" })).status).toBe(200);
    expect(await locationOf("h1")).toBe("m16");
    expect(await memoryUsed("m16")).toBe(8192);
    expect(await memoryUsed("m8")).toBe(4096);
  });

  it("an edit sizes a new share on the instance's own member", async () => {
    const patched = await call("PATCH", "/1.0/instances/h2", { config: { "limits.memory": "25%" } });
    expect(patched.status).toBe(200);
    expect(await memoryUsed("m8")).toBe(2048);
  });

  it("bulk placement and reservations size each share on its own member", async () => {
    const bulk = await call("POST", "/1.0/instances/bulk", {
      instances: [
        { name: "b1", profiles: ["half"] },
        { name: "b2", profiles: ["half"] },
      ],
    });
    expect(bulk.status).toBe(200);
    expect(await locationOf("b1")).toBe("m16");
    expect(await locationOf("b2")).toBe("m8");
    expect(await memoryUsed("m16")).toBe(16384);
    expect(await memoryUsed("m8")).toBe(2048 + 4096);
    for (const name of ["b1", "b2"])
      expect((await call("DELETE", `/1.0/instances/${name}`)).status).toBe(200);

    const reserved = await call("POST", "/1.0/instances", {
      name: "r1",
      profiles: ["half"],
      forthcoming: true,
    });
    expect(reserved.status).toBe(201);
    expect(reserved.body.metadata.location).toBe("m16");
    const memory = (await call("GET", "/1.0/cluster/members/m16/inventories/MEMORY_MB")).body.metadata;
    expect(memory).toMatchObject({ used: 8192, forthcoming: 8192 });
    expect((await call("POST", "/1.0/instances/r1/commit", {})).status).toBe(200);
    expect(await memoryUsed("m16")).toBe(16384);
    expect((await call("DELETE", "/1.0/instances/r1")).status).toBe(200);
    expect(await memoryUsed("m16")).toBe(8192);
  });

  it("refuses a malformed percentage with a 400 naming the key", async () => {
    for (const [value, why] of [
      ["abc%", 'strconv.ParseInt: parsing "abc": invalid syntax'],
      ["0%", "Memory limit can't be 0%"],
      ["-5%", "Memory limit can't be a negative percentage of the host's memory"],
      ["5.5%", 'strconv.ParseInt: parsing "5.5": invalid syntax'],
    ]) {
      const error = `Invalid value for config "limits.memory": ${why}`;
      await expectRefusal(
        server,
        { method: "POST", path: "/1.0/profiles", body: { name: "bad", config: { "limits.memory": value } } },
        400,
        error,
      );
      await expectRefusal(
        server,
        { method: "PATCH", path: "/1.0/profiles/half", body: { config: { "limits.memory": value } } },
        400,
        error,
      );
      await expectRefusal(
        server,
        { method: "POST", path: "/1.0/instances", body: { name: "bad", config: { "limits.memory": value } } },
        400,
        error,
      );
    }
    // The profile kept its share.
    expect((await call("GET", "/1.0/profiles/half")).body.metadata.config["limits.memory"]).toBe("50%");
  });

  it("a project that limits memory refuses a share with LXD's text", async () => {
    expect(
      (await call("POST", "/1.0/projects", { name: "lim", config: { "limits.memory": "64GiB" } })).status,
    ).toBe(201);
    await expectRefusal(
      server,
      {
        method: "POST",
        path: "/1.0/instances?project=lim",
        body: { name: "p1", config: { "limits.memory": "10%" } },
      },
      400,
      'Failed parsing "limits.memory" for instance "p1" in project "lim"',
    );
    const sized = await call("POST", "/1.0/instances?project=lim", {
      name: "p2",
      config: { "limits.memory": "1GiB" },
    });
    expect(sized.status).toBe(201);
    expect((await call("DELETE", "/1.0/instances/p2?project=lim")).status).toBe(200);
  });

  it("rebalancing sizes each moved share on the member it moves to", async () => {
    expect(
      (await call("POST", "/1.0/instances?target=m16", { name: "h3", config: { "limits.memory": "25%" } }))
        .status,
    ).toBe(201);
    const applied = await call("POST", "/1.0/cluster/rebalance", {});
    expect(applied.status).toBe(200);
    expect(applied.body.metadata.moves.length).toBeGreaterThan(0);
    const memoryGiB: Record<string, number> = { m16: 16, m8: 8, m32: 32 };
    const instances = (await call("GET", "/1.0/instances?recursion=1")).body.metadata as {
      location: string;
      expanded_config: Record<string, string>;
    }[];
    const expected: Record<string, number> = { m16: 0, m8: 0, m32: 0 };
    for (const instance of instances) {
      const percent = Number(instance.expanded_config["limits.memory"]!.slice(0, -1));
      const bytes = Math.floor((memoryGiB[instance.location]! * GiB) / 100) * percent;
      expected[instance.location]! += Math.ceil(bytes / 1024 ** 2);
    }
    for (const member of ["m16", "m8", "m32"]) expect(await memoryUsed(member)).toBe(expected[member]);
  });
});
