/**
 * The bundle `dist/main.js` runs (`dist/berth-iallocator.cjs`, built by
 * `scripts/bundle.mjs`) answers byte for byte as the modules do: Ganeti's
 * own inputs, generated clusters for every request type, and bad input.
 * It leaves out what the allocator never uses (Berth's modules are marked
 * free of import side effects there), so this is what holds that mark.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type * as Bundle from "./bundle.js";
import { loadBundle } from "./code-cache.js";
import { iallocate } from "./iallocate.js";
import { generateCluster } from "./testing/clusters.js";
import { BIN, SHARED_INPUTS, withInputFile } from "./testing/run.js";

const BUNDLE = resolve(dirname(fileURLToPath(import.meta.url)), "../dist/berth-iallocator.cjs");
const bundled = loadBundle<typeof Bundle>(BUNDLE).exports;

/** Ganeti's inputs where present (read in place; fixtures.test.ts names the path when absent). */
function ganetiInputs(): [string, string][] {
  if (!existsSync(SHARED_INPUTS)) return [];
  const files = ["ganeti", "ganeti-derived"].flatMap((dir) =>
    readdirSync(join(SHARED_INPUTS, dir))
      .filter((f) => f.endsWith(".json"))
      .map((f) => join(dir, f)),
  );
  return [...files, "ganeti-invalid-reloc.json"].map((f) => [
    f,
    readFileSync(join(SHARED_INPUTS, f), "utf8"),
  ]);
}

/** Generated clusters (several groups, drained nodes, existing plain and DRBD instances) under every request type. */
function generatedInputs(): [string, string][] {
  const inputs: [string, string][] = [];
  for (const seed of [1, 2, 3]) {
    const cluster = generateCluster({
      nodes: 12,
      groups: 3,
      existing: 20,
      requested: 6,
      drbdShare: 0.5,
      unusableEvery: 5,
      seed,
    });
    const existing = Object.entries(cluster.instances) as [string, { nodes: string[] }][];
    const [name, instance] = existing.find(([, i]) => i.nodes.length === 2)!;
    const plain = existing.find(([, i]) => i.nodes.length === 1)![0];
    const requests = {
      "multi-allocate": cluster.request,
      allocate: { type: "allocate", ...cluster.request.instances[0] },
      "allocate-secondary": { type: "allocate-secondary", name: plain },
      relocate: { type: "relocate", name, required_nodes: 1, relocate_from: [instance.nodes[1]] },
      "node-evacuate": { type: "node-evacuate", instances: [name, plain], evac_mode: "all" },
      "change-group": { type: "change-group", instances: [name], target_groups: [] },
    };
    for (const [type, request] of Object.entries(requests))
      inputs.push([`seed ${seed} ${type}`, JSON.stringify({ ...cluster, request })]);
  }
  return inputs;
}

const BAD_INPUTS: [string, string][] = [
  ["invalid JSON", "{"],
  [
    "a wrong type",
    JSON.stringify({ nodegroups: {}, nodes: {}, instances: {}, request: { type: "allocate" } }),
  ],
  [
    "an unknown request",
    JSON.stringify({ nodegroups: {}, nodes: {}, instances: {}, request: { type: "x" } }),
  ],
  ["an empty file", ""],
];

const inputs = [...ganetiInputs(), ...generatedInputs(), ...BAD_INPUTS];

describe("the bundled allocator", () => {
  it("requires nothing but Node's own modules", () => {
    const required = [...readFileSync(BUNDLE, "utf8").matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]);
    expect(required.length).toBeGreaterThan(0);
    expect(required.filter((id) => !id!.startsWith("node:"))).toEqual([]);
  });

  it.each(inputs)("answers %s exactly as the modules do", async (_, text) => {
    const [fromBundle, fromModules] = [await bundled.iallocate(text), await iallocate(text)];
    expect(JSON.stringify(fromBundle)).toBe(JSON.stringify(fromModules));
  });

  it("covers every request type, and both answers, among the inputs", async () => {
    const answers = await Promise.all(inputs.map(([, text]) => iallocate(text)));
    expect(new Set(answers.map((a) => a.success))).toEqual(new Set([true, false]));
    const types = new Set(generatedInputs().map(([, text]) => JSON.parse(text).request.type));
    expect([...types].sort()).toEqual([
      "allocate",
      "allocate-secondary",
      "change-group",
      "multi-allocate",
      "node-evacuate",
      "relocate",
    ]);
    const succeeded = answers.filter((a, i) => a.success && inputs[i]![0].startsWith("seed"));
    expect(succeeded.length).toBeGreaterThan(types.size);
  });
});

describe("berth-iallocator (dist/main.js)", () => {
  it("prints the modules' answer, from the bundle with its code cache accepted", async () => {
    const [, text] = inputs.find(([name]) => name === "seed 1 allocate")!;
    const out = withInputFile(text, (path) => spawnSync(process.execPath, [BIN, path], { encoding: "utf8" }));
    expect(out.status).toBe(0);
    expect(out.stdout).toBe(`${JSON.stringify(await iallocate(text))}\n`);
    // A plain `node`, as Ganeti starts it (not this test's worker): the cache must fit that one.
    const probe = `import { loadBundle } from ${JSON.stringify(join(dirname(BIN), "code-cache.js"))};
      process.stdout.write(loadBundle(${JSON.stringify(BUNDLE)}).cache);`;
    const state = spawnSync(process.execPath, ["--input-type=module", "-e", probe], { encoding: "utf8" });
    expect(state.stdout).toBe("accepted");
  });
});
