import { z } from "zod";

/*
 * LXD's response envelope (`shared/api/response.go` ResponseRaw). Every Berth answer is
 * wrapped in one of these, so `lxc`-style clients and scripts read Berth like LXD.
 */

/**
 * A synchronous success: `{"type":"sync","status":"Success","status_code":200,
 * "operation":"","error_code":0,"error":"","metadata":...}`.
 */
export function syncResponseSchema<M extends z.ZodType>(metadata: M) {
  return z.strictObject({
    type: z.literal("sync"),
    status: z.literal("Success"),
    status_code: z.literal(200),
    operation: z.literal(""),
    error_code: z.literal(0),
    error: z.literal(""),
    metadata,
  });
}

export const SyncResponseSchema = syncResponseSchema(z.unknown());
export type SyncResponse<M = unknown> = Omit<z.infer<typeof SyncResponseSchema>, "metadata"> & {
  metadata: M;
};

/**
 * An error: `{"type":"error","status":"","status_code":0,"operation":"","error_code":404,
 * "error":"not found","metadata":null}`. LXD always writes the empty `status`,
 * `status_code`, `operation` fields; they are optional here so a terse client-built
 * error also validates. `metadata` carries details (e.g. the failed instance of a bulk create).
 */
export const ErrorResponseSchema = z.strictObject({
  type: z.literal("error"),
  status: z.literal("").optional(),
  status_code: z.literal(0).optional(),
  operation: z.literal("").optional(),
  error_code: z.number().int().min(400).max(599),
  error: z.string().min(1),
  metadata: z.unknown().optional(),
});
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

/** LXD's `api.Operation`: what an asynchronous answer and `/1.0/operations` show. */
export const OperationSchema = z.strictObject({
  id: z.string(),
  /** `task`; `token` for a pending certificate-add token (`lxc config trust add`). */
  class: z.enum(["task", "token"]),
  description: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  status: z.enum(["Running", "Success", "Failure", "Cancelled"]),
  status_code: z.number().int(),
  /** URLs of what it touched, by kind: `{"instances": ["/1.0/instances/c1"]}`. */
  resources: z.record(z.string(), z.array(z.string())).nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  may_cancel: z.boolean(),
  err: z.string(),
  location: z.string(),
});
export type Operation = z.infer<typeof OperationSchema>;

/**
 * LXD's asynchronous answer (HTTP 202): `{"type":"async","status":"Operation created",
 * "status_code":100,"operation":"/1.0/operations/UUID",...,"metadata":<the operation>}`.
 */
export const AsyncResponseSchema = z.strictObject({
  type: z.literal("async"),
  status: z.literal("Operation created"),
  status_code: z.literal(100),
  operation: z.string(),
  error_code: z.literal(0),
  error: z.literal(""),
  metadata: OperationSchema,
});

/** Builds the sync envelope for `metadata`. */
export function syncResponse<M>(metadata: M): SyncResponse<M> {
  return {
    type: "sync",
    status: "Success",
    status_code: 200,
    operation: "",
    error_code: 0,
    error: "",
    metadata,
  };
}

/** Builds an error envelope with every field LXD writes. */
export function errorResponse(errorCode: number, message: string, metadata: unknown = null): ErrorResponse {
  return {
    type: "error",
    status: "",
    status_code: 0,
    operation: "",
    error_code: errorCode,
    error: message,
    metadata,
  };
}
