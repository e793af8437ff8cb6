import { z } from "zod";
import { InstancesPostSchema } from "./instances.js";
import { InstanceNameSchema, MemberNameSchema } from "./names.js";

/** Largest batch one request may carry; bigger batches are split by the client. */
export const MAX_BULK_INSTANCES = 10_000;

/**
 * `POST /1.0/instances/bulk`: many instances, all placed or none (Ganeti multi-allocate,
 * made atomic). Names must be unique within the batch; a repeated name is reported at the
 * later position, naming the earlier one.
 */
export const BulkCreateRequestSchema = z
  .strictObject({
    instances: z.array(InstancesPostSchema).min(1).max(MAX_BULK_INSTANCES),
  })
  .superRefine((request, ctx) => {
    const firstIndex = new Map<string, number>();
    request.instances.forEach((instance, index) => {
      if (instance.name === undefined) return;
      const earlier = firstIndex.get(instance.name);
      if (earlier === undefined) firstIndex.set(instance.name, index);
      else {
        ctx.addIssue({
          code: "custom",
          path: ["instances", index, "name"],
          message: `duplicate name "${instance.name}" (also instances[${earlier}])`,
          input: instance.name,
        });
      }
    });
  });
export type BulkCreateRequest = z.infer<typeof BulkCreateRequestSchema>;

/** Where one instance of the batch landed; `name` is `""` for an unnamed reservation. */
export const BulkPlacementSchema = z.strictObject({
  name: z.union([InstanceNameSchema, z.literal("")]),
  uuid: z.uuid(),
  location: MemberNameSchema,
});
export type BulkPlacement = z.infer<typeof BulkPlacementSchema>;

/** Success: one placement per requested instance, in request order. */
export const BulkCreateResultSchema = z.strictObject({
  placements: z.array(BulkPlacementSchema),
});
export type BulkCreateResult = z.infer<typeof BulkCreateResultSchema>;

/**
 * Failure details, sent as the `metadata` of the error envelope: the first instance that
 * could not be placed (by position and name) and why. Nothing of the batch was created.
 */
export const BulkCreateFailureSchema = z.strictObject({
  index: z.number().int().min(0),
  name: z.string(),
  error: z.string().min(1),
});
export type BulkCreateFailure = z.infer<typeof BulkCreateFailureSchema>;
