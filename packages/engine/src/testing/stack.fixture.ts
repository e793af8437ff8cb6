/**
 * Test helpers for the placement stack: members as the model holds them,
 * placement requests from the real expansion, and a model built from both.
 */
import type { InstancesPost } from "@berth/api-types";
import type { Timing } from "../candidates/filter.js";
import type { PlacementStack } from "../candidates/stack.js";
import { expandRequest } from "../expand/expand.js";
import { NO_MEMBERS, type PlacementRequest } from "../expand/request.js";
import { ClusterModel } from "../model/cluster-model.js";
import { MemberState } from "../model/member-state.js";
import type { MemberRecord } from "../store/records.js";
import { inventory, newMember, testId } from "./fixtures.js";

/** The clock tests judge by: every member heartbeats at NOW unless told otherwise. */
export const NOW = Date.parse("2026-01-01T00:00:00.000Z");
export const TIME: Timing = { nowMs: NOW, offlineThresholdMs: 20_000 };

let joined = 0;

/** A stored member record: online at NOW, 16 VCPU and 64 GiB unless overridden. */
export function memberRecord(name: string, overrides: Partial<MemberRecord> = {}): MemberRecord {
  joined += 1;
  return {
    ...newMember(name, {
      lastHeartbeat: new Date(NOW).toISOString(),
      inventories: { VCPU: inventory(16), MEMORY_MB: inventory(65536) },
    }),
    generation: 1,
    joinOrder: joined,
    createdAt: "2026-01-01T00:00:00.000Z",
    ...overrides,
  };
}

/** A member as the model holds it, with `load` stored instances. */
export function memberState(name: string, overrides: Partial<MemberRecord> = {}, load = 0): MemberState {
  const member = new MemberState(memberRecord(name, overrides));
  member.instanceCount = load;
  return member;
}

/** A model holding `records` (in join order), for `stack`. */
export function modelOf(stack: PlacementStack, records: MemberRecord[]): ClusterModel {
  const model = new ClusterModel(stack.memberSignature);
  for (const record of records) model.upsertMember(record);
  return model;
}

const NO_CATALOG = {
  profile: () => undefined,
  flavor: () => undefined,
  imageByAlias: () => undefined,
  imageByFingerprint: () => undefined,
  defaultArchitecture: "",
};

/** A request for `body` (expanded for real, without profiles), with placement fields overridden. */
export function placementRequest(
  overrides: Partial<PlacementRequest> = {},
  body: InstancesPost = { config: { "limits.cpu": "1", "limits.memory": "1GiB" } },
): PlacementRequest {
  const expanded = expandRequest({ profiles: [], ...body }, body.name ?? "i1", NO_CATALOG);
  return {
    ...expanded,
    id: testId(),
    reason: "new",
    project: { name: "default", description: "", config: {} },
    projectName: "default",
    limits: {},
    allowedGroups: [],
    target: null,
    excluded: NO_MEMBERS,
    movingFrom: null,
    groupPolicy: null,
    forthcoming: false,
    architecture: "",
    description: "",
    ephemeral: false,
    source: null,
    ...overrides,
  };
}
