/**
 * Property: the candidate cache never serves a stale set. A stack that has
 * answered any mix of other requests, across member record changes,
 * answers every request exactly as a fresh stack (empty cache) does.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NO_MEMBERS, type PlacementRequest } from "../expand/request.js";
import type { MemberRecord } from "../store/records.js";
import { memberRecord, modelOf, NOW, placementRequest, TIME } from "../testing/stack.fixture.js";
import { defaultStack } from "./default-stack.js";

const NAMES = ["a", "b", "c", "d", "e", "f", "g", "h"];

/** One of `values`, the earlier ones more often. */
const oneOf = <T>(...values: T[]) =>
  fc.oneof(
    ...values.map((value, index) => ({ weight: values.length - index, arbitrary: fc.constant(value) })),
  );

/** Members mostly eligible (so requests have candidates to tell apart), some not, for every reason. */
const memberArbitrary = fc.record({
  architecture: oneOf("x86_64", "aarch64"),
  groups: oneOf(["g1"], ["g1", "g2"], ["g2"], []),
  traits: oneOf(["SSD"], [], ["SSD", "GPU"], ["GPU"]),
  config: oneOf<Record<string, string>>(
    {},
    { "scheduler.instance": "group" },
    { "scheduler.instance": "manual" },
  ),
  evacuated: oneOf(false, true),
  lastHeartbeat: oneOf<string | null>(new Date(NOW).toISOString(), null),
});

/** Request fields to change: each step changes some and keeps the rest, so requests often differ in one field only. */
const patchArbitrary = fc.record(
  {
    projectName: oneOf("p1", "p2"),
    target: oneOf<PlacementRequest["target"]>(
      null,
      { kind: "group", name: "g1" },
      { kind: "group", name: "g2" },
    ),
    allowedGroups: oneOf<string[]>([], ["g1"], ["g2"], ["g1", "g2"]),
    architectures: oneOf<string[] | null>(["x86_64"], null, ["aarch64"], ["i686"], ["armv7l", "x86_64"]),
    requiredTraits: oneOf<string[]>([], ["SSD"], ["GPU"], ["SSD", "GPU"]),
    forbiddenTraits: oneOf<string[]>([], ["GPU"], ["SSD"]),
    excluded: fc
      .subarray(NAMES, { maxLength: 2 })
      .map((names) => (names.length === 0 ? NO_MEMBERS : new Set(names))),
  },
  { requiredKeys: [] },
);

/** One field of one member changed (a change touching several fields hides a signature that misses one). */
const memberChangeArbitrary = fc.record({
  kind: fc.constant("change" as const),
  member: fc.nat({ max: NAMES.length - 1 }),
  patch: fc.oneof(
    memberArbitrary.map(({ architecture }) => ({ architecture })),
    memberArbitrary.map(({ groups }) => ({ groups })),
    memberArbitrary.map(({ traits }) => ({ traits })),
    memberArbitrary.map(({ config }) => ({ config })),
    memberArbitrary.map(({ evacuated }) => ({ evacuated })),
    memberArbitrary.map(({ lastHeartbeat }) => ({ lastHeartbeat })),
    fc.constantFrom({ description: "changed" }, { state: { sysinfo: { free_ram: 1 } } }),
  ),
});

/** A request, or a change to one member's record. */
const stepArbitrary = fc.oneof(
  { weight: 3, arbitrary: patchArbitrary.map((patch) => ({ kind: "request" as const, patch })) },
  { weight: 1, arbitrary: memberChangeArbitrary },
);

const freshNames = (
  request: PlacementRequest,
  stack: ReturnType<typeof defaultStack>,
  records: MemberRecord[],
) => stack.candidates(modelOf(stack, records), request, TIME, "all").candidates.map((member) => member.name);

describe("the candidate cache (property)", () => {
  it("answers every request as an empty cache does, across other requests and member changes", () => {
    fc.assert(
      fc.property(
        fc.array(memberArbitrary, { minLength: NAMES.length, maxLength: NAMES.length }),
        fc.array(stepArbitrary, { minLength: 10, maxLength: 40 }),
        (specs, steps) => {
          const records = specs.map((spec, index) => memberRecord(NAMES[index]!, spec));
          const warm = defaultStack();
          const model = modelOf(warm, records);
          let fields: Partial<PlacementRequest> = {};
          const check = (request: PlacementRequest) => {
            const served = warm
              .candidates(model, request, TIME, "all")
              .candidates.map((member) => member.name);
            expect(served).toEqual(freshNames(request, defaultStack(), records));
            const first = warm.candidates(model, request, TIME, "first").candidates[0]?.name;
            expect(first).toBe(served[0]);
          };
          for (const step of steps) {
            if (step.kind === "change") {
              const current = model.member(NAMES[step.member]!)!.record;
              const changed: MemberRecord = { ...current, ...step.patch };
              records[step.member] = changed;
              model.upsertMember(changed);
            } else fields = { ...fields, ...step.patch };
            // After a member change, the same request again: the cached set it used must not survive a change it depends on.
            check(placementRequest(fields));
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
