import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMembers, startTestServer, type TestServer } from "../testing/test-server.fixture.js";

interface Family {
  type: string;
  samples: { name: string; labels: Record<string, string>; value: number }[];
}

/** Parses the Prometheus text format: families by `# TYPE`, samples under the family they belong to. */
function parseExposition(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const declared: string[] = [];
  for (const line of text.split("\n")) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) {
      expect(families.has(type[1]!), `family ${type[1]} declared twice`).toBe(false);
      families.set(type[1]!, { type: type[2]!, samples: [] });
      declared.push(type[1]!);
      continue;
    }
    if (line === "" || line.startsWith("#")) continue;
    const sample = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    expect(sample, `not a sample line: ${line}`).not.toBeNull();
    const [, name, labelText, value] = sample!;
    const labels: Record<string, string> = {};
    for (const match of (labelText ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[match[1]!] = match[2]!;
    const family = declared.findLast((f) => name === f || name!.startsWith(`${f}_`));
    expect(family, `sample ${name} outside any family`).toBeDefined();
    families.get(family!)!.samples.push({ name: name!, labels, value: Number(value) });
  }
  return families;
}

/** The value of the sample `name` (exact sample name) whose labels include `labels`. */
function sampleValue(families: Map<string, Family>, name: string, labels: Record<string, string> = {}) {
  const samples = [...families.values()].flatMap((family) => family.samples);
  return samples.find(
    (s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value),
  )?.value;
}

const TARGET_FIRST = `
def instance_placement(request, candidate_members):
    set_target(candidate_members[0].server_name)
`;

describe("/1.0/metrics: each series exists once, counted by the engine", () => {
  let server: TestServer;
  let families: Map<string, Family>;

  async function call(method: string, path: string, body?: unknown): Promise<number> {
    const response = await server.fetch(path, {
      method,
      token: server.adminToken,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    await response.text();
    return response.status;
  }

  beforeAll(async () => {
    server = await startTestServer();
    await addMembers(server.tcp(server.adminToken), [
      { name: "m1", cpus: 8 },
      { name: "m2", cpus: 8 },
    ]);
    expect(await call("POST", "/1.0/instances", { name: "a", config: { "limits.cpu": "1" } })).toBe(201);
    expect(await call("POST", "/1.0/instances", { name: "r", forthcoming: true })).toBe(201);
    expect(await call("POST", "/1.0/instances?dry_run=true", { name: "d" })).toBe(200);
    expect(await call("POST", "/1.0/instances", { name: "huge", config: { "limits.cpu": "99" } })).toBe(507);
    expect(
      await call("POST", "/1.0/instances/bulk", {
        instances: [{ name: "b1" }, { name: "b2" }, { name: "b3" }],
      }),
    ).toBe(200);
    expect(await call("POST", "/1.0/instances/a?target=m2", {})).toBe(200);
    expect(await call("POST", "/1.0/instances/r/commit")).toBe(200);
    await call("PATCH", "/1.0", { config: { "instances.placement.scriptlet": TARGET_FIRST } });
    expect(await call("POST", "/1.0/instances", { name: "s1" })).toBe(201);
    expect(await call("POST", "/1.0/instances?dry_run=true", { name: "s2" })).toBe(200);
    const response = await server.fetch("/1.0/metrics", { token: server.adminToken });
    families = parseExposition(await response.text());
  });
  afterAll(() => server.close());

  it("declares no family twice, under two prefixes, or as a renamed copy", () => {
    const names = [...families.keys()];
    expect(names.filter((name) => name.startsWith("berth_engine_"))).toEqual([]);
    // One meaning, one name: no family is another one with a word added or dropped.
    for (const name of names) {
      const stem = name.replace(/_total$/, "");
      expect(names.filter((other) => other.replace(/_total$/, "") === stem)).toEqual([name]);
    }
    for (const [name, family] of families) {
      const keys = family.samples.map((s) => `${s.name}${JSON.stringify(s.labels)}`);
      expect(new Set(keys).size, `duplicate samples in ${name}`).toBe(keys.length);
    }
  });

  it("counts each placement once, by operation", () => {
    expect(sampleValue(families, "berth_placements_total", { operation: "create" })).toBe(2);
    expect(sampleValue(families, "berth_placements_total", { operation: "reservation" })).toBe(1);
    expect(sampleValue(families, "berth_placements_total", { operation: "dry_run" })).toBe(2);
    expect(sampleValue(families, "berth_placements_total", { operation: "bulk" })).toBe(3);
    expect(sampleValue(families, "berth_placements_total", { operation: "move" })).toBe(1);
    expect(sampleValue(families, "berth_placements_total", { operation: "commit" })).toBe(1);
    expect(
      sampleValue(families, "berth_placement_failures_total", {
        operation: "create",
        kind: "insufficient_capacity",
      }),
    ).toBe(1);
    expect(sampleValue(families, "berth_placement_duration_seconds_count", { operation: "create" })).toBe(3);
  });

  it("counts scriptlet runs once (creates and dry runs), with steps per run", () => {
    expect(sampleValue(families, "berth_scriptlet_runs_total", { outcome: "target" })).toBe(2);
    expect(families.get("berth_scriptlet_steps")?.type).toBe("histogram");
    expect(sampleValue(families, "berth_scriptlet_steps_count")).toBe(2);
    expect(sampleValue(families, "berth_scriptlet_steps_sum")).toBeGreaterThan(0);
  });

  it("exports the engine's histograms as well-formed Prometheus histograms", () => {
    for (const name of ["berth_placement_duration_seconds", "berth_scriptlet_steps"]) {
      const family = families.get(name)!;
      expect(family.type).toBe("histogram");
      const byLabels = new Map<string, { le: string; value: number }[]>();
      for (const sample of family.samples.filter((s) => s.name === `${name}_bucket`)) {
        const { le, ...rest } = sample.labels;
        const key = JSON.stringify(rest);
        byLabels.set(key, [...(byLabels.get(key) ?? []), { le: le!, value: sample.value }]);
      }
      expect(byLabels.size).toBeGreaterThan(0);
      for (const [key, buckets] of byLabels) {
        const values = buckets.map((b) => b.value);
        expect(
          [...values].sort((a, b) => a - b),
          `${name}${key} buckets cumulative`,
        ).toEqual(values);
        expect(buckets.at(-1)?.le).toBe("+Inf");
        const count = family.samples.find(
          (s) => s.name === `${name}_count` && JSON.stringify(s.labels) === key,
        )?.value;
        expect(buckets.at(-1)?.value).toBe(count);
      }
    }
  });
});
