import { z } from "zod";
import { CustomResourceClassNameSchema, ResourceClassNameSchema } from "./names.js";

/** A resource class as listed: standard classes cannot be deleted. */
export const ResourceClassSchema = z.strictObject({
  name: ResourceClassNameSchema,
  standard: z.boolean(),
});
export type ResourceClass = z.infer<typeof ResourceClassSchema>;

/** `POST /1.0/resource-classes`: only custom classes can be created. */
export const ResourceClassesPostSchema = z.strictObject({
  name: CustomResourceClassNameSchema,
});
export type ResourceClassesPost = z.infer<typeof ResourceClassesPostSchema>;
