import { z } from "zod";
import { ResourceClassNameSchema } from "./names.js";

/** A resource class as listed: standard classes cannot be deleted. */
export const ResourceClassSchema = z.strictObject({
  name: ResourceClassNameSchema,
  standard: z.boolean(),
});
export type ResourceClass = z.infer<typeof ResourceClassSchema>;

/**
 * `POST /1.0/resource-classes`: only custom classes can be created. The name is any string
 * here: whether it is a valid `CUSTOM_*` name is checked once, by the engine with
 * @berth/resources' `validateCustomName`, so `POST` and `PUT` refuse a bad name with the
 * same Placement text (`JSON does not validate: 'VCPU' does not match '^CUSTOM_[A-Z0-9_]+$'`).
 */
export const ResourceClassesPostSchema = z.strictObject({
  name: z.string(),
});
export type ResourceClassesPost = z.infer<typeof ResourceClassesPostSchema>;
