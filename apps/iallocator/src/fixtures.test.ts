/**
 * Ganeti's own iallocator inputs (`../shared/ganeti-iallocator`, read in
 * place), run through the real binary: every one gets a valid answer,
 * every one hail cannot place fails cleanly, the texts Ganeti's tests
 * match on are hail's, and (where Debian's hail is installed) Berth
 * succeeds exactly where hail does.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { iallocate } from "./iallocate.js";
import type { Json } from "./testing/rules.js";
import { newViolations } from "./testing/rules.js";
import { type Answer, hailInstalled, runBerth, runHail, SHARED_INPUTS } from "./testing/run.js";

const present = existsSync(SHARED_INPUTS);
if (!present) console.warn(`skipping Ganeti's iallocator inputs: ${SHARED_INPUTS} is missing`);

const files = present
  ? [
      ...readdirSync(join(SHARED_INPUTS, "ganeti")).map((f) => join("ganeti", f)),
      ...readdirSync(join(SHARED_INPUTS, "ganeti-derived")).map((f) => join("ganeti-derived", f)),
    ].filter((f) => f.endsWith(".json"))
  : [];

/** The inputs hail 3.0.2 cannot place (`success: false`): Berth must refuse them too. */
const HAIL_FAILS = new Set([
  "ganeti/hail-alloc-drbd-restricted.json",
  "ganeti/hail-alloc-ext.json",
  "ganeti/hail-alloc-invalid-network.json",
  "ganeti/hail-alloc-invalid-twodisks.json",
  "ganeti/hail-alloc-plain-tags.json",
  "ganeti/hail-alloc-spindles.json",
  "ganeti/hail-alloc-twodisks.json",
  "ganeti/hail-reloc-drbd-crowded.json",
  "ganeti-derived/hail-alloc-drbd.fail-excl-stor.json",
  "ganeti-derived/hail-alloc-invalid-network.no-networks.json",
  "ganeti-derived/hail-alloc-invalid-twodisks.excl-stor.json",
  "ganeti-derived/hail-alloc-invalid-twodisks.fail-excl-stor.json",
  "ganeti-derived/hail-alloc-spindles.fail-excl-stor.json",
  "ganeti-derived/hail-alloc-twodisks.fail-excl-stor.json",
  "ganeti-derived/hail-reloc-drbd.fail-excl-stor.json",
]);

// In-process for the 36 inputs (one process each would cost seconds of start-up); the binary for a sample below.
const answers = new Map<string, Answer>();
for (const file of files)
  answers.set(file, (await iallocate(readFileSync(join(SHARED_INPUTS, file), "utf8"))) as Answer);
const inputOf = (file: string) => JSON.parse(readFileSync(join(SHARED_INPUTS, file), "utf8"));

describe.skipIf(!present)("Ganeti's iallocator inputs", () => {
  it("are all there (18 of Ganeti's and 18 derived; the invalid relocation apart)", async () => {
    expect(files.length).toBe(36);
  });

  it.each(files)("%s gets a valid answer", (file) => {
    const answer = answers.get(file)!;
    expect(typeof answer.info).toBe("string");
    expect(answer.success).toBe(!HAIL_FAILS.has(file));
    if (!answer.success) {
      expect(answer.result).toEqual([]);
      expect(answer.info).toMatch(/^Request failed: /);
      return;
    }
    expect(answer.info).toMatch(/^Request successful: /);
    const input = inputOf(file);
    const request = input.request;
    if (request.type === "allocate") {
      expect(answer.result).toHaveLength(request.required_nodes);
      const specs = new Map([[request.name, request]]);
      expect(newViolations(input, [[request.name, answer.result]], specs)).toEqual([]);
    }
    if (request.type === "multi-allocate") {
      const [allocated, failed] = answer.result;
      expect(allocated.map(([name]: [string]) => name)).toEqual(request.instances.map((i: Json) => i.name));
      expect(failed).toEqual([]);
      const specs = new Map(request.instances.map((i: Json) => [i.name, i]));
      expect(newViolations(input, allocated, specs as never)).toEqual([]);
    }
    if (request.type === "node-evacuate" || request.type === "change-group") {
      const [moved, failed, jobs] = answer.result;
      expect([...moved.map((m: Json) => m[0]), ...failed.map((f: Json) => f[0])].sort()).toEqual(
        [...request.instances].sort(),
      );
      expect(jobs).toHaveLength(moved.length);
    }
  });

  /** hail 3.0.2's `info` on these inputs, which Berth gives word for word. */
  const HAIL_TEXTS: [string, string][] = [
    [
      "ganeti/hail-alloc-plain-tags.json",
      "Request failed: Group default (preferred): No valid allocation solutions, failure reasons: FailTags: 3",
    ],
    [
      "ganeti/hail-alloc-invalid-twodisks.json",
      "Request failed: Group default (preferred): No valid allocation solutions, failure reasons: FailDisk: 1",
    ],
    [
      "ganeti/hail-reloc-drbd-crowded.json",
      "Request failed: Can't find any good node:  Node node1 failed: FailMem; Node node2 failed: FailMem;",
    ],
    [
      "ganeti/hail-alloc-invalid-network.json",
      "Request failed: group Group 2 is not connected to a network required by instance instance1, Group Group 1 (preferred): No valid allocation solutions, failure reasons: FailDisk: 1",
    ],
    [
      "ganeti-derived/hail-alloc-drbd.fail-excl-stor.json",
      "Request failed: Group default (preferred): No valid allocation solutions, failure reasons: FailSpindles: 12",
    ],
    [
      "ganeti/hail-node-evac.json",
      "Request successful: 0 instances failed to move and 1 were moved successfully",
    ],
    [
      "ganeti-derived/hail-change-group.fail-excl-stor.json",
      "Request successful: 1 instances failed to move and 0 were moved successfully",
    ],
    [
      "ganeti/hail-multialloc-dedicated.json",
      "Request successful: 0 instances failed to allocate and 2 were allocated successfully",
    ],
    ["ganeti/hail-alloc-ext.json", "Request failed: "],
  ];

  it.each(HAIL_TEXTS)("%s answers hail's text", (file, info) => {
    expect(answers.get(file)!.info).toBe(info);
  });

  it("keeps whole members for big instances in dedicated (exclusive-storage) groups, as hail does", async () => {
    expect(answers.get("ganeti/hail-alloc-dedicated-1.json")!.result).toEqual(["node2-quarter"]);
    expect(answers.get("ganeti/hail-multialloc-dedicated.json")!.result).toEqual([
      [
        ["instance-new-quarter-1", ["node2-quarter"]],
        ["instance-new-quarter-2", ["node3-half"]],
      ],
      [],
    ]);
    // With exclusive storage the disks' spindles (1) meet the policy, not the declared spindle use (3).
    expect(answers.get("ganeti-derived/hail-alloc-spindles.excl-stor.json")!.result).toEqual(["node1"]);
  });

  it("places the DRBD pair in failure domains apart and follows the operator's disk-template choice", async () => {
    // node3 is power:b, node1/node2 power:a: the pair must span both.
    expect(answers.get("ganeti/hail-alloc-nlocation.json")!.result[0]).toBe("node3");
    expect(answers.get("ganeti/hail-alloc-secondary.json")!.result).toBe("node-2-2");
    expect(answers.get("ganeti/hail-reloc-drbd.json")!.result).toEqual(["node1"]);
    expect(answers.get("ganeti-derived/hail-node-evac.primary-only.json")!.result[0]).toEqual([
      ["instance2", "default", ["node4", "node3"]],
    ]);
  });

  it("the binary answers exactly what the function does", async () => {
    for (const file of [
      "ganeti/hail-alloc-drbd.json",
      "ganeti/hail-multialloc-dedicated.json",
      "ganeti/hail-change-group.json",
    ])
      expect(runBerth(join(SHARED_INPUTS, file))).toEqual(answers.get(file));
  });

  it("refuses Ganeti's invalid relocation (a name that is not a string) cleanly", async () => {
    const answer = runBerth(join(SHARED_INPUTS, "ganeti-invalid-reloc.json"));
    expect(answer).toEqual({
      success: false,
      info: "Invalid request: key 'request.name': Invalid input: expected string, received number",
      result: [],
    });
  });

  it.skipIf(!hailInstalled)("succeeds exactly where Debian's hail does", () => {
    for (const file of files) {
      const hail = runHail(join(SHARED_INPUTS, file));
      expect([file, answers.get(file)!.success]).toEqual([file, hail.success]);
    }
  });
});
