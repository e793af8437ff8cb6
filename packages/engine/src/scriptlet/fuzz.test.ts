/**
 * Garbage in, clear answer out: any source either validates or fails with an
 * "invalid" EngineError, and any run ends in an outcome (never a host crash).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EngineError } from "../base/errors.js";
import { createScriptletHost } from "./host.js";
import { createPlainClusterView } from "./plain-cluster.js";
import type { ScriptletCall } from "./port.js";

const members = [{ server_name: "node1" }, { server_name: "node2" }];
const call: ScriptletCall = {
  request: { name: "c1", reason: "new", project: "default", config: { "limits.cpu": "1" } },
  candidates: members,
  instanceResources: { cpu_cores: 1, memory_size: 0, root_disk_size: 0 },
  cluster: createPlainClusterView({ members }),
  limits: {
    maxSteps: 5_000,
    timeoutMs: 500,
    maxStringLength: 4_096,
    maxCollectionSize: 1_000,
    maxAllocBytes: 1 << 20,
  },
};

/** Fragments that make parseable-looking but often wrong Starlark. */
const fragment = fc.constantFrom(
  "def instance_placement(request, candidate_members):\n",
  "    ",
  "pass\n",
  "return ",
  "None",
  '"x"',
  "1",
  "2.5",
  "[",
  "]",
  "(",
  ")",
  "{",
  "}",
  ":",
  ",",
  " + ",
  " * ",
  " // ",
  " % ",
  "=",
  "\n",
  "for i in range(10):\n",
  "while True:\n",
  "if ",
  "lambda x: x",
  "request.name",
  "request[0]",
  "candidate_members[0].server_name",
  "set_target(",
  "log_info(",
  "get_cluster_member_state(",
  "get_instances(",
  "fail(",
  "load(",
  "set()",
  "x",
  "**",
);

const sources = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.array(fragment, { maxLength: 40 }).map((parts) => parts.join("")),
);

describe("fuzzing the host", () => {
  it("validate answers valid or EngineError invalid, nothing else", () => {
    const host = createScriptletHost();
    fc.assert(
      fc.property(sources, (source) => {
        try {
          host.validate(source);
        } catch (err) {
          expect(err).toBeInstanceOf(EngineError);
          expect((err as EngineError).kind).toBe("invalid");
          expect((err as EngineError).message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("run always ends in an outcome with its cost", () => {
    const host = createScriptletHost();
    let version = 0;
    fc.assert(
      fc.property(sources, (source) => {
        const result = host.run(++version, source, call);
        expect(["target", "default", "rejected"]).toContain(result.outcome.kind);
        if (result.outcome.kind === "rejected") {
          expect(result.outcome.message.startsWith("Failed instance placement scriptlet: ")).toBe(true);
        }
        expect(result.cost.steps).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 300 },
    );
  });
});
