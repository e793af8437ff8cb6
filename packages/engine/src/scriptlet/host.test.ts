import { describe, expect, it } from "vitest";
import { EngineError } from "../base/errors.js";
import { createScriptletHost } from "./host.js";
import { createPlainClusterView } from "./plain-cluster.js";
import type { ClusterMemberView, ScriptletCall, ScriptletLimits, ScriptletLogger } from "./port.js";

const members: ClusterMemberView[] = [
  { server_name: "node1", groups: ["default"] },
  { server_name: "node2", groups: ["default"] },
  { server_name: "node3", groups: ["default"] },
];
const cluster = createPlainClusterView({ members });
const LIMITS: ScriptletLimits = {
  maxSteps: 200_000,
  timeoutMs: 2_000,
  maxStringLength: 1 << 16,
  maxCollectionSize: 10_000,
  maxAllocBytes: 64 << 20,
};

function placement(overrides: Partial<ScriptletCall> = {}): ScriptletCall {
  return {
    request: { name: "c1", reason: "new", project: "default", type: "container", config: {} },
    candidates: members,
    instanceResources: { cpu_cores: 1, memory_size: 0, root_disk_size: 0 },
    cluster,
    limits: LIMITS,
    ...overrides,
  };
}

/** A scriptlet whose instance_placement body is `body` (indented by the helper). */
function scriptlet(body: string, prelude = ""): string {
  const indented = body
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
  return `${prelude}def instance_placement(request, candidate_members):\n${indented}\n`;
}

function validationError(source: string): string {
  const host = createScriptletHost();
  try {
    host.validate(source);
  } catch (err) {
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).kind).toBe("invalid");
    return (err as EngineError).message;
  }
  throw new Error("validation passed");
}

function rejection(source: string, call: ScriptletCall = placement()): string {
  const result = createScriptletHost().run(1, source, call);
  if (result.outcome.kind !== "rejected") throw new Error(`not rejected: ${JSON.stringify(result.outcome)}`);
  return result.outcome.message;
}

describe("validate", () => {
  it("accepts both parameter sets, in any order, with defaults", () => {
    const host = createScriptletHost();
    expect(() => host.validate(scriptlet("pass"))).not.toThrow();
    expect(() =>
      host.validate("def instance_placement(candidate_members, request=None):\n    pass\n"),
    ).not.toThrow();
    expect(() =>
      host.validate("def instance_placement(reason, request, candidate_members):\n    pass\n"),
    ).not.toThrow();
  });

  it("accepts the empty value (it removes the scriptlet)", () => {
    expect(() => createScriptletHost().validate("")).not.toThrow();
  });

  it("reports compile errors with their position", () => {
    expect(validationError("foo")).toBe("instance_placement:1:1: undefined: foo");
    expect(validationError(scriptlet("unknown_fn()"))).toBe("instance_placement:2:5: undefined: unknown_fn");
    // go.starlark.net reports parse errors where the scanner stands: after the offending token.
    expect(validationError("def instance_placement(request, candidate_members)\n    pass\n")).toBe(
      "instance_placement:2:1: got newline, want ':'",
    );
  });

  it("enforces the LXD dialect", () => {
    expect(validationError(scriptlet("while True:\n    pass"))).toBe(
      "instance_placement:2:5: this Starlark dialect does not support while loops",
    );
    expect(validationError("for x in []:\n    pass\n")).toBe(
      "instance_placement:1:1: for loop not within a function",
    );
    expect(validationError("if True:\n    pass\n")).toBe(
      "instance_placement:1:1: if statement not within a function",
    );
    expect(validationError("x = 1\nx = 2\n")).toMatch(
      /^instance_placement:2:1: cannot reassign global x declared at instance_placement:1:1$/,
    );
  });

  it("rejects Python's ** (Starlark has no power operator)", () => {
    expect(validationError(scriptlet("for i in range(10**9):\n    pass"))).toBe(
      "instance_placement:2:24: got '**', want ','",
    );
  });

  it("has no load()", () => {
    expect(validationError(`load("lib.star", "x")\n${scriptlet("pass")}`)).toBe(
      "instance_placement:1:1: load not implemented by this application",
    );
  });

  it("refuses pathological nesting with a position instead of crashing", () => {
    expect(validationError(`x = ${"(".repeat(5000)}1${")".repeat(5000)}\n${scriptlet("pass")}`)).toMatch(
      /^instance_placement:1:\d+: nesting too deep/,
    );
  });

  it("allows sets, floats, lambda and nested def", () => {
    const source = scriptlet(
      "s = set([1, 2])\nf = 1.5 * 2\ng = lambda x: x + 1\ndef inner():\n    return g(1)\ninner()",
    );
    expect(() => createScriptletHost().validate(source)).not.toThrow();
  });

  it("runs the top level without builtins", () => {
    // Incus's text (lxd-scriptlet.md §6.2), with the position first.
    expect(validationError(`log_info("hello")\n${scriptlet("pass")}`)).toBe(
      "instance_placement:1:1: internal error: predeclared variable log_info is uninitialized",
    );
  });

  it("reports top-level runtime errors with their position", () => {
    expect(validationError(`x = 1 // 0\n${scriptlet("pass")}`)).toBe(
      "instance_placement:1:7: floored division by zero",
    );
  });

  it("checks the entry point with the Incus texts", () => {
    expect(validationError("x = 1\n")).toBe(
      'the function "instance_placement" is required but has not been found in the scriptlet',
    );
    expect(validationError("instance_placement = 1\n")).toBe(
      '"instance_placement" should define the scriptlet\u2019s required function of the same name (found a value of type int instead)',
    );
    expect(validationError("def instance_placement(req, members):\n    pass\n")).toBe(
      'the required function "instance_placement" defines arguments ["members" "req"] (expected ["candidate_members" "request"])',
    );
    expect(validationError("def instance_placement(request, candidate_members, **kwargs):\n    pass\n")).toBe(
      'the required function "instance_placement" defines arguments ["candidate_members" "kwargs" "request"] (expected ["candidate_members" "reason" "request"])',
    );
  });

  it("bounds the top level with the given limits", () => {
    const limits = {
      maxSteps: 100,
      timeoutMs: 1_000,
      maxStringLength: 1_000,
      maxCollectionSize: 1_000,
      maxAllocBytes: 64 << 20,
    };
    expect(() =>
      createScriptletHost().validate(`x = [0 for i in range(1000) if False]\n${scriptlet("pass")}`, limits),
    ).toThrow(/^instance_placement:1:\d+: Starlark computation cancelled: too many steps \(limit 100\)$/);
  });

  it("bounds the top level", () => {
    const message = validationError(`x = [i for i in range(10000000) if False]\n${scriptlet("pass")}`);
    expect(message).toMatch(/^instance_placement:1:\d+: Starlark computation cancelled: too many steps/);
  });
});

describe("run: outcomes", () => {
  it("returns the default outcome when set_target is never called", () => {
    expect(createScriptletHost().run(1, scriptlet("pass"), placement()).outcome).toEqual({ kind: "default" });
    expect(createScriptletHost().run(1, scriptlet("return None"), placement()).outcome).toEqual({
      kind: "default",
    });
  });

  it("returns the last member set_target chose", () => {
    const source = scriptlet('set_target("node3")\nset_target(candidate_members[1].server_name)');
    expect(createScriptletHost().run(1, source, placement()).outcome).toEqual({
      kind: "target",
      member: "node2",
    });
  });

  it("calls with keywords, so parameter order does not matter", () => {
    const source =
      "def instance_placement(candidate_members, request):\n    set_target(candidate_members[2].server_name)\n";
    expect(createScriptletHost().run(1, source, placement()).outcome).toEqual({
      kind: "target",
      member: "node3",
    });
  });

  it("passes reason to the pre-release form", () => {
    const source =
      'def instance_placement(reason, request, candidate_members):\n    if reason != "evacuation":\n        return "Expecting reason evacuation"\n';
    const call = placement({ request: { name: "c1", reason: "evacuation", project: "default" } });
    expect(createScriptletHost().run(1, source, call).outcome).toEqual({ kind: "default" });
    expect(rejection(source)).toBe(
      'Failed instance placement scriptlet: Failed with return value: "Expecting reason evacuation"',
    );
  });

  it("rejects any non-None return value, shown as its repr", () => {
    expect(rejection(scriptlet('return "Invalid name"'))).toBe(
      'Failed instance placement scriptlet: Failed with return value: "Invalid name"',
    );
    expect(rejection(scriptlet("return 1"))).toBe(
      "Failed instance placement scriptlet: Failed with return value: 1",
    );
    expect(rejection(scriptlet("return False"))).toBe(
      "Failed instance placement scriptlet: Failed with return value: False",
    );
    expect(rejection(scriptlet('return ["a", 2]'))).toBe(
      'Failed instance placement scriptlet: Failed with return value: ["a", 2]',
    );
  });

  it("rejects on runtime errors with the Starlark message", () => {
    expect(rejection(scriptlet('fail("Instance not allowed")'))).toBe(
      "Failed instance placement scriptlet: Failed to run: fail: Instance not allowed",
    );
    expect(rejection(scriptlet("log_info(candidate_members[4])"))).toBe(
      "Failed instance placement scriptlet: Failed to run: list index 4 out of range [-3:2]",
    );
    expect(rejection(scriptlet('set_target("foo")'))).toBe(
      "Failed instance placement scriptlet: Failed to run: Invalid member name: foo",
    );
    expect(rejection(scriptlet("request.foo"))).toBe(
      'Failed instance placement scriptlet: Failed to run: Invalid field "foo"',
    );
  });

  it("refuses recursion at run time", () => {
    const source = scriptlet("f(3)", "def f(n):\n    if n > 0:\n        f(n - 1)\n");
    expect(rejection(source)).toBe(
      "Failed instance placement scriptlet: Failed to run: function f called recursively",
    );
  });

  it("reports a failing top level and a missing or uncallable entry point", () => {
    expect(rejection(`x = 1 // 0\n${scriptlet("pass")}`)).toBe(
      "Failed instance placement scriptlet: Failed initializing: floored division by zero",
    );
    expect(rejection("x = 1\n")).toBe(
      "Failed instance placement scriptlet: Scriptlet missing instance_placement function",
    );
    expect(rejection("instance_placement = 1\n")).toBe(
      "Failed instance placement scriptlet: Failed to run: invalid call of non-function (int)",
    );
  });

  it("answers 'not loaded' for a value that does not compile, logging why", () => {
    const result = createScriptletHost().run(3, "foo", placement());
    expect(result.outcome).toEqual({
      kind: "rejected",
      message: "Failed instance placement scriptlet: Instance placement scriptlet not loaded",
      atLoad: true,
    });
    expect(result.logs).toEqual([
      {
        level: "error",
        message: "Failed loading instance placement scriptlet: instance_placement:1:1: undefined: foo",
      },
    ]);
  });

  it("runs the new source when a version number is reused", () => {
    const host = createScriptletHost();
    expect(host.run(5, scriptlet('set_target("node1")'), placement()).outcome).toEqual({
      kind: "target",
      member: "node1",
    });
    expect(host.run(5, scriptlet('set_target("node2")'), placement()).outcome).toEqual({
      kind: "target",
      member: "node2",
    });
  });

  it("re-runs the top level every time and keeps globals frozen", () => {
    const source = scriptlet("seen.append(1)", "seen = []\n");
    expect(rejection(source)).toBe(
      "Failed instance placement scriptlet: Failed to run: append: cannot append to frozen list",
    );
  });

  it("reports the cost of each run", () => {
    const result = createScriptletHost().run(1, scriptlet("for i in range(100):\n    pass"), placement());
    expect(result.cost.steps).toBeGreaterThanOrEqual(100);
    expect(result.cost.ms).toBeGreaterThanOrEqual(0);
  });
  it("supports what Incus scriptlets do with sets and dicts", () => {
    // Anti-affinity by a user key, as in lxc/incus#2741: collect the members already used, skip them.
    const source = scriptlet(
      [
        "used = set()",
        'used.add("node1")',
        'used |= set(["node2"])',
        "free = [m.server_name for m in candidate_members if m.server_name not in used]",
        'spread = {m.server_name: 0 for m in candidate_members} | {"node3": 1}',
        "set_target(free[0])",
        'log_info(sorted(used), " ", spread)',
      ].join("\n"),
    );
    const result = createScriptletHost().run(1, source, placement());
    expect(result.outcome).toEqual({ kind: "target", member: "node3" });
    expect(result.logs).toEqual([
      { level: "info", message: '["node1", "node2"] {"node1": 0, "node2": 0, "node3": 1}' },
    ]);
  });
});

describe("run: logging", () => {
  it("routes log lines and print() to the logger with instance, project and reason", () => {
    const lines: unknown[] = [];
    const logger: ScriptletLogger = { log: (line) => lines.push(line) };
    const source = scriptlet('log_info("a")\nlog_warn("b")\nlog_error("c")\nprint("d", 1)');
    const call = placement({ request: { name: "web", reason: "relocation", project: "prod" } });
    const result = createScriptletHost().run(1, source, call, logger);
    const meta = { instance: "web", project: "prod", reason: "relocation" };
    expect(lines).toEqual([
      { level: "info", message: "a", ...meta },
      { level: "warn", message: "b", ...meta },
      { level: "error", message: "c", ...meta },
      { level: "info", message: "d 1", ...meta },
    ]);
    expect(result.logs).toEqual([
      { level: "info", message: "a" },
      { level: "warn", message: "b" },
      { level: "error", message: "c" },
      { level: "info", message: "d 1" },
    ]);
  });

  it("bounds the log output of a run", () => {
    const source = scriptlet('s = "x" * 60000\nfor i in range(100):\n    log_info(s)\nset_target("node1")');
    const result = createScriptletHost().run(1, source, placement());
    expect(result.outcome).toEqual({ kind: "target", member: "node1" });
    expect(result.logs).toHaveLength(18);
    expect(result.logs[17]).toEqual({
      level: "warn",
      message: "log output truncated: 83 more lines dropped (limit 1048576 characters per run)",
    });
  });

  it("keeps the lines logged before a failure", () => {
    const result = createScriptletHost().run(1, scriptlet('log_info("before")\nfail("x")'), placement());
    expect(result.logs).toEqual([{ level: "info", message: "before" }]);
  });

  it("carries non-ASCII text through unchanged", () => {
    const call = placement({
      request: { name: "Ωmega", reason: "new", project: "default" },
      candidates: [{ server_name: "nœud1" }],
      cluster: createPlainClusterView({ members: [{ server_name: "nœud1" }] }),
    });
    const source = scriptlet('log_info("name: ", request.name, " ", len("Ω"))\nset_target("nœud1")');
    const result = createScriptletHost().run(1, source, call);
    expect(result.logs).toEqual([{ level: "info", message: "name: Ωmega 2" }]);
    expect(result.outcome).toEqual({ kind: "target", member: "nœud1" });
    expect(rejection(scriptlet('fail("héllo")'))).toBe(
      "Failed instance placement scriptlet: Failed to run: fail: héllo",
    );
  });
});

describe("run: limits", () => {
  it("stops a runaway loop at the step budget", () => {
    const message = rejection(scriptlet("for i in range(1000000000):\n    pass"));
    expect(message).toBe(
      "Failed instance placement scriptlet: Failed to run: Starlark computation cancelled: too many steps (limit 200000)",
    );
  });

  it("counts the top level against the same budget", () => {
    const result = createScriptletHost().run(
      1,
      `x = [i for i in range(150000)]\n${scriptlet("for i in range(100000):\n    pass")}`,
      placement({ limits: { ...LIMITS, maxCollectionSize: 1_000_000 } }),
    );
    expect(result.outcome).toEqual({
      kind: "rejected",
      message:
        "Failed instance placement scriptlet: Failed to run: Starlark computation cancelled: too many steps (limit 200000)",
    });
    expect(result.cost.steps).toBeGreaterThan(200_000);
  });

  it("stops memory bombs that stay under the per-value caps at the run's allocation budget", () => {
    // #17: each list and string is under maxCollectionSize / maxStringLength; only the total is too much.
    const call = placement({
      limits: {
        ...LIMITS,
        maxSteps: 10_000_000,
        maxCollectionSize: 2_000_000,
        maxStringLength: 2 << 20,
        maxAllocBytes: 32 << 20,
      },
    });
    const expected =
      "Failed instance placement scriptlet: Failed to run: starlark: memory budget of 33554432 bytes exceeded";
    expect(
      rejection(scriptlet("keep = []\nfor i in range(1000):\n    keep.append([0] * 1000000)"), call),
    ).toBe(expected);
    expect(
      rejection(
        scriptlet(
          'keep = []\ns = "x" * 1000\nfor i in range(1000):\n    keep.append(s.replace("x", "y" * 1000))',
        ),
        call,
      ),
    ).toBe(expected);
  });

  it("stops a runaway loop at the deadline", () => {
    const call = placement({ limits: { ...LIMITS, maxSteps: Number.MAX_SAFE_INTEGER, timeoutMs: 30 } });
    const started = Date.now();
    const message = rejection(scriptlet("for i in range(1000000000):\n    pass"), call);
    expect(message).toBe(
      "Failed instance placement scriptlet: Failed to run: Starlark computation cancelled: deadline exceeded",
    );
    // Generous: only proves the loop was cut off, not how fast (that is a benchmark's job).
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("stops when the caller aborts", () => {
    // The request ends while the scriptlet runs: here the cluster view sees it first.
    const controller = new AbortController();
    const view = createPlainClusterView({ members });
    const aborting = {
      ...view,
      memberState: (name: string) => {
        controller.abort();
        return view.memberState(name);
      },
    };
    const call = placement({
      cluster: aborting,
      limits: { ...LIMITS, maxSteps: Number.MAX_SAFE_INTEGER },
      signal: controller.signal,
    });
    const source = scriptlet('get_cluster_member_state("node1")\nfor i in range(1000000000):\n    pass');
    expect(rejection(source, call)).toBe(
      "Failed instance placement scriptlet: Failed to run: Starlark computation cancelled: aborted",
    );
    // Already aborted before the run: the top level does not even start.
    expect(rejection(scriptlet("pass"), call)).toBe(
      "Failed instance placement scriptlet: Failed initializing: Starlark computation cancelled: aborted",
    );
  });

  it("fails memory bombs on the string cap", () => {
    expect(rejection(scriptlet('s = "x" * (1 << 20)'))).toMatch(
      /^Failed instance placement scriptlet: Failed to run: string too large: \d+ bytes exceeds the limit of 65536$/,
    );
    expect(rejection(scriptlet('s = "ab"\nfor i in range(40):\n    s = s + s'))).toMatch(
      /^Failed instance placement scriptlet: Failed to run: string too large: \d+ bytes exceeds the limit of 65536$/,
    );
  });

  it("bounds reprs: logging, str() and return values of huge values", () => {
    const tooLarge =
      /^Failed instance placement scriptlet: Failed to run: string too large: \d+ bytes exceeds the limit of 65536$/;
    const big = 'l = ["x" * 60000] * 10000\n';
    expect(rejection(scriptlet(`${big}log_info(l)`))).toMatch(tooLarge);
    expect(rejection(scriptlet(`${big}s = str(l)`))).toMatch(tooLarge);
    expect(rejection(scriptlet(`${big}print(l)`))).toMatch(tooLarge);
    expect(rejection(scriptlet(`${big}return l`))).toMatch(tooLarge);
    expect(rejection(scriptlet(`${big}request[l]`))).toMatch(tooLarge);
    // Host objects repr their (scriptlet-mutable) containers within the same bound.
    const grown = 'c = request.config\nfor i in range(10):\n    c[str(i)] = "x" * 60000\nlog_info(request)';
    expect(rejection(scriptlet(grown))).toMatch(tooLarge);
  });

  it("fails memory bombs on the collection cap", () => {
    expect(rejection(scriptlet("l = [0] * 100000000"))).toMatch(
      /^Failed instance placement scriptlet: Failed to run: collection too large: \d+ elements exceeds the limit of 10000$/,
    );
    expect(rejection(scriptlet("d = {i: i for i in range(20000)}"))).toMatch(
      /^Failed instance placement scriptlet: Failed to run: collection too large: \d+ elements exceeds the limit of 10000$/,
    );
    expect(rejection(scriptlet("d = {}\nfor i in range(20000):\n    d[i] = i"))).toMatch(
      /^Failed instance placement scriptlet: Failed to run: collection too large: \d+ elements exceeds the limit of 10000$/,
    );
    expect(rejection(scriptlet("l = []\nfor i in range(20000):\n    l.append(i)"))).toMatch(
      /^Failed instance placement scriptlet: Failed to run: collection too large: \d+ elements exceeds the limit of 10000$/,
    );
  });
});
