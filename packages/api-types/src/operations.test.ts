import { describe, expect, it } from "vitest";
import {
  BulkCreateFailureSchema,
  BulkCreateRequestSchema,
  BulkCreateResultSchema,
  MAX_BULK_INSTANCES,
} from "./bulk.js";
import { DryRunResultSchema } from "./dry-run.js";
import { InstancePlacementRecordSchema } from "./placement-record.js";
import { RebalancePlanSchema } from "./rebalance.js";
import { ScriptletCheckRequestSchema, ScriptletCheckResultSchema } from "./scriptlet-check.js";
import { UUID_A, UUID_B } from "./testing/examples.fixture.js";
import { errorOf } from "./testing/rejection.fixture.js";
import { parseBody } from "./validation.js";

describe("bulk create (seed 002: Ganeti multi-allocate)", () => {
  it("accepts a list of instance create bodies", () => {
    const body = {
      instances: [
        { name: "web1", flavor: "m1.small", config: { "placement.group": "web" } },
        { name: "web2", flavor: "m1.small", config: { "placement.group": "web" } },
        { name: "db1", type: "virtual-machine", instance_type: "c4-m8" },
        { forthcoming: true },
      ],
    };
    expect(parseBody(BulkCreateRequestSchema, body)).toEqual({ ok: true, value: body });
  });

  it("rejects an empty batch, a duplicate name and a bad member, naming the position", () => {
    expect(errorOf(parseBody(BulkCreateRequestSchema, { instances: [] }))).toBe(
      'Invalid field "instances": must have at least 1 item',
    );
    expect(
      errorOf(
        parseBody(BulkCreateRequestSchema, { instances: [{ name: "a" }, { name: "b" }, { name: "a" }] }),
      ),
    ).toBe('Invalid field "instances[2].name": duplicate name "a" (also instances[0])');
    expect(
      errorOf(parseBody(BulkCreateRequestSchema, { instances: [{ name: "a" }, { name: "b", cpus: 2 }] })),
    ).toBe('Unknown field "instances[1].cpus"');
  });

  it("caps the batch size", () => {
    const instances = Array.from({ length: MAX_BULK_INSTANCES + 1 }, () => ({}));
    expect(errorOf(parseBody(BulkCreateRequestSchema, { instances }))).toBe(
      `Invalid field "instances": must have at most ${MAX_BULK_INSTANCES} items`,
    );
  });

  it("rejects Ganeti's pnode-style target inside an instance", () => {
    expect(errorOf(parseBody(BulkCreateRequestSchema, { instances: [{ name: "a", pnode: "node1" }] }))).toBe(
      'Unknown field "instances[0].pnode"',
    );
  });

  it("describes success and failure results", () => {
    const result = {
      placements: [
        { name: "web1", uuid: UUID_A, location: "node1" },
        { name: "", uuid: UUID_B, location: "node2" },
      ],
    };
    expect(parseBody(BulkCreateResultSchema, result).ok).toBe(true);
    expect(errorOf(parseBody(BulkCreateResultSchema, { placements: [{ name: "web1", uuid: UUID_A }] }))).toBe(
      'Missing field "placements[0].location"',
    );
    const failure = { index: 1, name: "web2", error: "No member has capacity for MEMORY_MB" };
    expect(parseBody(BulkCreateFailureSchema, failure).ok).toBe(true);
    expect(errorOf(parseBody(BulkCreateFailureSchema, { ...failure, error: "" }))).toBe(
      'Invalid field "error": must not be empty',
    );
  });
});

describe("dry-run result", () => {
  const placed = {
    decision: { outcome: "placed", location: "node2", decided_by: "scriptlet" },
    candidates: ["node1", "node2", "node3"],
    rejections: [
      { code: "offline", count: 1, text: "1 member is offline", members: ["node4"], capacity: false },
    ],
    scriptlet_ran: true,
    log: [{ level: "info", message: "instance_placement started: c1" }],
    cost: { steps: 1234, time_ms: 0.42 },
  };

  it("accepts a placed and a rejected decision", () => {
    expect(parseBody(DryRunResultSchema, placed)).toEqual({ ok: true, value: placed });
    const rejected = {
      ...placed,
      decision: {
        outcome: "rejected",
        error: 'Failed instance placement scriptlet: Failed with return value: "Invalid name"',
        error_code: 400,
      },
    };
    expect(parseBody(DryRunResultSchema, rejected).ok).toBe(true);
  });

  it("rejects an unknown outcome, a bad log level and negative cost", () => {
    expect(errorOf(parseBody(DryRunResultSchema, { ...placed, decision: { outcome: "maybe" } }))).toBe(
      'Invalid field "decision.outcome": expected one of "placed", "rejected"',
    );
    expect(
      errorOf(parseBody(DryRunResultSchema, { ...placed, log: [{ level: "debug", message: "" }] })),
    ).toBe('Invalid field "log[0].level": expected one of "info", "warn", "error"');
    expect(errorOf(parseBody(DryRunResultSchema, { ...placed, cost: { steps: -1, time_ms: 0 } }))).toBe(
      'Invalid field "cost.steps": must be at least 0',
    );
    expect(
      errorOf(parseBody(DryRunResultSchema, { ...placed, rejections: [{ code: "offline", count: 1 }] })),
    ).toBe('Missing field "rejections[0].text" (and 2 more errors)');
    expect(
      errorOf(
        parseBody(DryRunResultSchema, {
          ...placed,
          decision: { outcome: "placed", location: "node2", decided_by: "luck" },
        }),
      ),
    ).toBe('Invalid field "decision.decided_by": expected one of "target", "scriptlet", "default"');
  });
});

describe("rebalance plan", () => {
  const plan = {
    moves: [{ instance: "c1", project: "default", from: "node1", to: "node3", gain: 0.25 }],
    score_before: 1.5,
    score_after: 1.25,
    applied: false,
  };

  it("accepts a plan", () => {
    expect(parseBody(RebalancePlanSchema, plan)).toEqual({ ok: true, value: plan });
    expect(parseBody(RebalancePlanSchema, { ...plan, moves: [] }).ok).toBe(true);
  });

  it("rejects a move to the same member and a non-positive gain", () => {
    const move = plan.moves[0];
    expect(errorOf(parseBody(RebalancePlanSchema, { ...plan, moves: [{ ...move, to: "node1" }] }))).toBe(
      'Invalid field "moves[0].to": must differ from "from"',
    );
    expect(errorOf(parseBody(RebalancePlanSchema, { ...plan, moves: [{ ...move, gain: 0 }] }))).toBe(
      'Invalid field "moves[0].gain": must be greater than 0',
    );
  });
});

describe("placement record", () => {
  const record = {
    instance: "web1",
    project: "default",
    member: "node2",
    decided_at: "2026-01-01T00:00:00.000Z",
    reason: "evacuation",
    decided_by: "scriptlet",
    target: null,
    placement_group: { name: "web", policy: "spread", rigor: "strict" },
    members: 4,
    candidates: { count: 2, leading: ["node2", "node3"] },
    rejections: [
      {
        code: "capacity:MEMORY_MB",
        count: 1,
        text: "1 member has too little MEMORY_MB",
        members: ["node4"],
        capacity: true,
      },
    ],
    log: [{ level: "info", message: "placing web1" }],
    log_dropped: 0,
    scriptlet: { steps: 10, time_ms: 0.1 },
  };

  it("accepts every decision maker and reason, and no candidate search", () => {
    expect(parseBody(InstancePlacementRecordSchema, record)).toEqual({ ok: true, value: record });
    const restored = {
      ...record,
      reason: "restore",
      decided_by: "restore",
      candidates: null,
      scriptlet: null,
    };
    expect(parseBody(InstancePlacementRecordSchema, restored).ok).toBe(true);
  });

  it("names a wrong field", () => {
    expect(errorOf(parseBody(InstancePlacementRecordSchema, { ...record, decided_by: "luck" }))).toBe(
      'Invalid field "decided_by": expected one of "target", "scriptlet", "default", "rebalance", "restore"',
    );
  });
});

describe("scriptlet check", () => {
  it("takes a source and answers valid or the error with its position", () => {
    expect(parseBody(ScriptletCheckRequestSchema, { source: "" }).ok).toBe(true);
    expect(errorOf(parseBody(ScriptletCheckRequestSchema, { source: 1 }))).toMatch(/^Invalid field "source"/);
    expect(errorOf(parseBody(ScriptletCheckRequestSchema, { source: "", extra: 1 }))).toMatch(/extra/);
    const answer = { valid: false, error: { message: "instance_placement:3:1: x", line: 3, column: 1 } };
    expect(parseBody(ScriptletCheckResultSchema, answer).ok).toBe(true);
    expect(parseBody(ScriptletCheckResultSchema, { valid: true, error: null }).ok).toBe(true);
  });
});
