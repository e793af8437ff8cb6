import { z } from "zod";
import { FlavorNameSchema } from "./names.js";
import { DescriptionSchema, MAX_INT32 } from "./primitives.js";

/**
 * Extra specs as Nova stores them: string keys and values of at most 255 characters each.
 * Their meaning (`resources[N]:CLASS=AMOUNT`, `trait[N]:NAME=required|forbidden`) and Nova's
 * error texts are checked by @berth/resources when a flavor is written.
 */
export const ExtraSpecsSchema = z.record(z.string().min(1).max(255), z.string().max(255));

/** Nova's flavor bounds: at least one vCPU and one MiB of memory; disk may be 0. */
const flavorSizing = {
  vcpus: z.number().int().min(1).max(MAX_INT32),
  memory_mb: z.number().int().min(1).max(MAX_INT32),
  disk_gb: z.number().int().min(0).max(MAX_INT32),
};

export const FlavorPutSchema = z.strictObject({
  description: DescriptionSchema,
  ...flavorSizing,
  extra_specs: ExtraSpecsSchema,
});
export type FlavorPut = z.infer<typeof FlavorPutSchema>;

export const FlavorPatchSchema = FlavorPutSchema.partial();
export type FlavorPatch = z.infer<typeof FlavorPatchSchema>;

export const FlavorsPostSchema = z.strictObject({
  name: FlavorNameSchema,
  description: DescriptionSchema.optional(),
  ...flavorSizing,
  extra_specs: ExtraSpecsSchema.optional(),
});
export type FlavorsPost = z.infer<typeof FlavorsPostSchema>;

export const FlavorSchema = z.strictObject({
  name: FlavorNameSchema,
  ...FlavorPutSchema.shape,
});
export type Flavor = z.infer<typeof FlavorSchema>;
