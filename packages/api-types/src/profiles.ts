import { z } from "zod";
import { InstanceConfigSchema } from "./instances.js";
import { ProfileNameSchema, ProjectNameSchema } from "./names.js";
import { DescriptionSchema, DevicesMapSchema } from "./primitives.js";

/** The editable part of a profile (LXD `ProfilePut`): instance config and devices it contributes. */
export const ProfilePutSchema = z.strictObject({
  description: DescriptionSchema,
  config: InstanceConfigSchema,
  devices: DevicesMapSchema,
});
export type ProfilePut = z.infer<typeof ProfilePutSchema>;

export const ProfilePatchSchema = ProfilePutSchema.partial();
export type ProfilePatch = z.infer<typeof ProfilePatchSchema>;

export const ProfilesPostSchema = z.strictObject({
  name: ProfileNameSchema,
  description: DescriptionSchema.optional(),
  config: InstanceConfigSchema.optional(),
  devices: DevicesMapSchema.optional(),
});
export type ProfilesPost = z.infer<typeof ProfilesPostSchema>;

/** `POST /1.0/profiles/NAME`: rename. */
export const ProfilePostSchema = z.strictObject({ name: ProfileNameSchema });
export type ProfilePost = z.infer<typeof ProfilePostSchema>;

export const ProfileSchema = z.strictObject({
  name: ProfileNameSchema,
  ...ProfilePutSchema.shape,
  project: ProjectNameSchema,
  used_by: z.array(z.string()),
});
export type Profile = z.infer<typeof ProfileSchema>;
