import { describe, expect, it } from "vitest";
import { EngineError } from "../base/errors.js";
import { inventory } from "../testing/fixtures.js";
import { memberRecord, modelOf, NOW, placementRequest, TIME } from "../testing/stack.fixture.js";
import { DEFAULT_STACK, defaultStack } from "./default-stack.js";
import { type FeasibilityFilter, type StaticFilter, staticFilter } from "./filter.js";
import { architectureFilter } from "./filters/architecture.js";
import { placementGroupRanker } from "./rankers/placement-group.js";
import { rejection } from "./rejection.js";
import { PlacementStack } from "./stack.js";

const names = (members: readonly { name: string }[]) => members.map((member) => member.name);

/** The default stack with `filter` added after the others. */
function stackWith(filter: FeasibilityFilter): PlacementStack {
  return new PlacementStack({ ...DEFAULT_STACK, filters: [...DEFAULT_STACK.filters, filter] });
}

describe("the candidate cache key is derived from the static filters' declarations", () => {
  it("keys on every request field a static filter declares, and only those", () => {
    expect(defaultStack().keyFields).toEqual([
      "excluded",
      "target",
      "allowedGroups",
      "projectName",
      "architectures",
      "requiredTraits",
      "forbiddenTraits",
    ]);
    expect(defaultStack().memberFields).toEqual(["evacuated", "config", "groups", "architecture", "traits"]);
  });

  it("gives requests differing in a declared field different keys, in anything else the same key", () => {
    const stack = defaultStack();
    const base = placementRequest();
    expect(stack.cacheKey(placementRequest({ architectures: ["aarch64"] }))).not.toBe(stack.cacheKey(base));
    expect(stack.cacheKey(placementRequest({ excluded: new Set(["n1"]) }))).not.toBe(stack.cacheKey(base));
    expect(stack.cacheKey(placementRequest({ description: "other", name: "x", id: "y" }))).toBe(
      stack.cacheKey(base),
    );
  });

  it("adds the fields of a new static filter to the key", () => {
    const vmOnly = staticFilter({
      name: "no vms",
      reads: { request: ["type"], member: ["config"] },
      reject: (member, request) =>
        request.type === "virtual-machine" && member.config["user.vms"] === "false"
          ? rejection("no-vms", "takes no virtual machines", "take no virtual machines")
          : undefined,
    });
    const stack = stackWith(vmOnly);
    expect(stack.keyFields).toContain("type");
    const model = modelOf(stack, [memberRecord("a", { config: { "user.vms": "false" } }), memberRecord("b")]);
    const container = placementRequest({ type: "container" });
    const vm = placementRequest({ type: "virtual-machine" });
    expect(names(stack.staticCandidates(model, container))).toEqual(["a", "b"]);
    expect(names(stack.staticCandidates(model, vm))).toEqual(["b"]);
    expect(names(stack.staticCandidates(model, container))).toEqual(["a", "b"]);
  });

  it("refuses a static filter declaring a request field the key cannot encode", () => {
    const byDescription = {
      ...architectureFilter,
      name: "by description",
      reads: { request: ["description"], member: [] },
    } as unknown as StaticFilter;
    expect(() => stackWith(byDescription)).toThrow(
      'Static filter "by description" declares request field "description", which has no cache-key encoding (request-fields.ts)',
    );
  });

  it("refuses two filters of one name", () => {
    expect(() => stackWith(architectureFilter)).toThrow('Two feasibility filters are named "architecture"');
  });
});

describe("a filter that forgets to declare what it reads cannot serve a stale cached set", () => {
  // The same filter twice: once declaring the request field it reads, once forgetting it.
  const reject = (member: { architecture: string }, request: { architectures: readonly string[] | null }) =>
    request.architectures === null || request.architectures.includes(member.architecture)
      ? undefined
      : rejection("arch", "runs something else", "run something else");
  const declared = staticFilter({
    name: "arch (declared)",
    reads: { request: ["architectures"], member: ["architecture"] },
    reject,
  });
  const forgetful = staticFilter({
    name: "arch (forgetful)",
    reads: { request: [], member: ["architecture"] },
    // What a filter that reads past its declaration does (the types forbid it; a cast gets around them).
    reject: (member, request) => reject(member, request as unknown as { architectures: string[] | null }),
  });
  const records = () => [
    memberRecord("x", { architecture: "x86_64" }),
    memberRecord("y", { architecture: "aarch64" }),
  ];

  it("declared: two requests differing only in that field get their own candidates", () => {
    const stack = stackWith(declared);
    const model = modelOf(stack, records());
    const onX86 = placementRequest({ architectures: ["x86_64"] });
    const onArm = placementRequest({ architectures: ["aarch64"] });
    expect(names(stack.candidates(model, onX86, TIME, "all").candidates)).toEqual(["x"]);
    expect(names(stack.candidates(model, onArm, TIME, "all").candidates)).toEqual(["y"]);
    expect(names(stack.candidates(model, onArm, TIME, "first").candidates)).toEqual(["y"]);
  });

  it("forgotten: the read throws, naming the filter and the field, instead of answering", () => {
    const stack = stackWith(forgetful);
    const model = modelOf(stack, records());
    const onX86 = placementRequest({ architectures: ["x86_64"] });
    for (const run of [
      () => stack.candidates(model, onX86, TIME, "all"),
      () => stack.candidates(model, onX86, TIME, "first"),
      () => stack.check(model.member("x")!, onX86, TIME),
      () => stack.explain(model, onX86, TIME),
    ]) {
      expect(run).toThrow(EngineError);
      expect(run).toThrow(
        'Filter "arch (forgetful)" reads request field "architectures" it does not declare (declared: none)',
      );
    }
  });

  it("forgotten member field: the read throws too", () => {
    const byDescription = staticFilter({
      name: "by member description",
      reads: { request: [], member: [] },
      reject: (member) =>
        (member as unknown as { description: string }).description === "retired"
          ? rejection("retired", "is retired", "are retired")
          : undefined,
    });
    const stack = stackWith(byDescription);
    const model = modelOf(stack, records());
    expect(() => stack.staticCandidates(model, placementRequest())).toThrow(
      'A static filter reads member field "description" it does not declare (declared: name, evacuated, config, groups, architecture, traits)',
    );
  });
});

describe("member record changes and the cache", () => {
  it("recomputes when a declared member field changes, keeps the set across any other change", () => {
    const stack = defaultStack();
    const model = modelOf(stack, [memberRecord("a", { traits: ["SSD"] }), memberRecord("b")]);
    const ssd = placementRequest({ requiredTraits: ["SSD"] });
    const first = stack.staticCandidates(model, ssd);
    expect(names(first)).toEqual(["a"]);
    // Heartbeats, reported state, inventories and descriptions are not read by any static filter.
    const a = model.member("a")!.record;
    model.upsertMember({
      ...a,
      lastHeartbeat: new Date(NOW + 1000).toISOString(),
      state: { sysinfo: { free_ram: 1 } },
      description: "changed",
      inventories: { VCPU: inventory(2) },
    });
    expect(stack.staticCandidates(model, ssd)).toBe(first);
    model.upsertMember({ ...model.member("b")!.record, traits: ["SSD"] });
    expect(names(stack.staticCandidates(model, ssd))).toEqual(["a", "b"]);
  });
});

describe("check: one named member through the stack", () => {
  const stack = defaultStack();
  const model = modelOf(stack, [
    memberRecord("quiet", { lastHeartbeat: new Date(NOW - 60_000).toISOString(), traits: ["SSD"] }),
    memberRecord("small", { inventories: { VCPU: inventory(1), MEMORY_MB: inventory(512) } }),
  ]);

  it("answers the first filter that turns it down", () => {
    const request = placementRequest({ requiredTraits: ["SSD"] });
    expect(stack.check(model.member("quiet")!, request, TIME)?.code).toBe("offline");
    expect(stack.check(model.member("small")!, request, TIME)?.code).toBe("lack:SSD");
    expect(stack.check(model.member("small")!, placementRequest(), TIME)?.code).toBe("capacity:MEMORY_MB");
  });
});

describe("candidates", () => {
  it("explains every member's first rejection in filter order when nothing fits", () => {
    const stack = defaultStack();
    const model = modelOf(stack, [
      memberRecord("off", { lastHeartbeat: null, evacuated: true }),
      memberRecord("evac", { evacuated: true }),
      memberRecord("arm", { architecture: "aarch64" }),
      memberRecord("full", { inventories: { VCPU: inventory(0), MEMORY_MB: inventory(65536) } }),
    ]);
    const set = stack.candidates(model, placementRequest({ architectures: ["x86_64"] }), TIME, "first");
    expect(set.candidates).toEqual([]);
    expect(set.rejected.map(({ member, rejection: why }) => `${member}: ${why.code}`)).toEqual([
      "off: offline",
      "evac: evacuated",
      "arm: arch:x86_64",
      "full: capacity:VCPU",
    ]);
  });

  /** A request in the strict spread placement group "pg". */
  const strictSpreadRequest = () =>
    placementRequest({
      placementGroup: "pg",
      groupPolicy: {
        project: "default",
        name: "pg",
        description: "",
        policy: "spread",
        rigor: "strict",
        config: {},
      },
    });

  it("appends a ranking's rejections after the filters'", () => {
    const stack = defaultStack();
    const model = modelOf(stack, [memberRecord("a"), memberRecord("b", { evacuated: true })]);
    model.addPending({ member: "a", project: "default", resources: {}, placementGroup: "pg" });
    const request = strictSpreadRequest();
    const set = stack.candidates(model, request, TIME, "first");
    expect(set.rejected.map(({ member, rejection: why }) => `${member}: ${why.code}`)).toEqual([
      "b: evacuated",
      "a: spread:pg",
    ]);
  });

  it("takes the first-pick shortcut only past a ranking that turns nobody down", () => {
    const stack = new PlacementStack({ filters: DEFAULT_STACK.filters, rankers: [placementGroupRanker] });
    const model = modelOf(stack, [memberRecord("a"), memberRecord("b")]);
    model.addPending({ member: "a", project: "default", resources: {}, placementGroup: "pg" });
    const request = strictSpreadRequest();
    expect(names(stack.candidates(model, request, TIME, "first").candidates)).toEqual(["b"]);
  });

  it("lists every candidate for the scriptlet when all are asked for", () => {
    const stack = defaultStack();
    const model = modelOf(stack, [memberRecord("a"), memberRecord("b")]);
    model.addPending({ member: "a", project: "default", resources: {}, placementGroup: null });
    const set = stack.candidates(model, placementRequest(), TIME, "all");
    expect(set.listing?.names).toEqual(["b", "a"]);
    expect(set.listing?.isCandidate("a")).toBe(true);
    expect(set.listing?.views.map((view) => view.server_name)).toEqual(["b", "a"]);
  });
});
