import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ErrorResponseSchema,
  errorResponse,
  SyncResponseSchema,
  syncResponse,
  syncResponseSchema,
} from "./envelope.js";
import { ClusterMemberSchema } from "./members.js";
import { clusterMember } from "./testing/examples.fixture.js";
import { errorOf } from "./testing/rejection.fixture.js";
import { parseBody } from "./validation.js";

describe("LXD response envelope", () => {
  it("builds the sync envelope with every LXD field", () => {
    expect(syncResponse(["/1.0/instances/c1"])).toEqual({
      type: "sync",
      status: "Success",
      status_code: 200,
      operation: "",
      error_code: 0,
      error: "",
      metadata: ["/1.0/instances/c1"],
    });
    expect(parseBody(SyncResponseSchema, syncResponse({ any: "thing" })).ok).toBe(true);
  });

  it("types the metadata when asked", () => {
    const MemberResponse = syncResponseSchema(ClusterMemberSchema);
    expect(parseBody(MemberResponse, syncResponse(clusterMember)).ok).toBe(true);
    expect(errorOf(parseBody(MemberResponse, syncResponse({ ...clusterMember, status: "Up" })))).toBe(
      'Invalid field "metadata.status": expected one of "Online", "Offline", "Evacuated", "Evacuating", "Restoring", "Blocked"',
    );
    const ListResponse = syncResponseSchema(z.array(z.string()));
    expect(parseBody(ListResponse, syncResponse(["/1.0/cluster/members/node1"])).ok).toBe(true);
  });

  it("rejects a sync envelope with a wrong status code or an extra field", () => {
    expect(errorOf(parseBody(SyncResponseSchema, { ...syncResponse(null), status_code: 201 }))).toBe(
      'Invalid field "status_code": expected 200',
    );
    expect(errorOf(parseBody(SyncResponseSchema, { ...syncResponse(null), etag: "x" }))).toBe(
      'Unknown field "etag"',
    );
  });

  it("builds the error envelope as LXD writes it", () => {
    expect(errorResponse(404, "Instance not found")).toEqual({
      type: "error",
      status: "",
      status_code: 0,
      operation: "",
      error_code: 404,
      error: "Instance not found",
      metadata: null,
    });
    const failure = { index: 3, name: "web4", error: "No member has capacity for VCPU" };
    expect(errorResponse(507, failure.error, failure).metadata).toEqual(failure);
  });

  it("accepts the terse error form and rejects non-error codes", () => {
    expect(parseBody(ErrorResponseSchema, { type: "error", error: "not found", error_code: 404 }).ok).toBe(
      true,
    );
    expect(errorOf(parseBody(ErrorResponseSchema, { type: "error", error: "x", error_code: 200 }))).toBe(
      'Invalid field "error_code": must be at least 400',
    );
    expect(errorOf(parseBody(ErrorResponseSchema, { type: "error", error: "", error_code: 500 }))).toBe(
      'Invalid field "error": must not be empty',
    );
  });
});
