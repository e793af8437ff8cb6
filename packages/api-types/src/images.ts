import { z } from "zod";
import { FingerprintPrefixSchema, FingerprintSchema, ImageAliasNameSchema } from "./names.js";
import { ArchitectureSchema, ConfigMapSchema, DescriptionSchema } from "./primitives.js";

/*
 * Berth keeps image records only to know which architectures an image (or alias) exists
 * for: the architecture filter of a placement. No image data is ever stored.
 */

export const ImageTypeSchema = z.enum(["container", "virtual-machine"]);

/** An alias as embedded in an image (LXD `ImageAlias`). */
export const ImageAliasSchema = z.strictObject({
  name: ImageAliasNameSchema,
  description: DescriptionSchema,
});

export const ImagePutSchema = z.strictObject({
  description: DescriptionSchema,
  properties: ConfigMapSchema,
});
export type ImagePut = z.infer<typeof ImagePutSchema>;

export const ImagePatchSchema = ImagePutSchema.partial();
export type ImagePatch = z.infer<typeof ImagePatchSchema>;

/** `POST /1.0/images`: register an image's fingerprint and architecture. */
export const ImagesPostSchema = z.strictObject({
  fingerprint: FingerprintSchema,
  architecture: ArchitectureSchema,
  type: ImageTypeSchema.optional(),
  description: DescriptionSchema.optional(),
  properties: ConfigMapSchema.optional(),
  aliases: z.array(ImageAliasSchema).optional(),
});
export type ImagesPost = z.infer<typeof ImagesPostSchema>;

export const ImageSchema = z.strictObject({
  fingerprint: FingerprintSchema,
  architecture: ArchitectureSchema,
  type: ImageTypeSchema,
  ...ImagePutSchema.shape,
  aliases: z.array(ImageAliasSchema),
});
export type Image = z.infer<typeof ImageSchema>;

/** `PUT /1.0/images/aliases/NAME` (LXD `ImageAliasesEntryPut`). */
export const ImageAliasPutSchema = z.strictObject({
  description: DescriptionSchema,
  target: FingerprintSchema,
});
export type ImageAliasPut = z.infer<typeof ImageAliasPutSchema>;

export const ImageAliasPatchSchema = ImageAliasPutSchema.partial();
export type ImageAliasPatch = z.infer<typeof ImageAliasPatchSchema>;

/** `POST /1.0/images/aliases` (LXD `ImageAliasesPost`). */
export const ImageAliasesPostSchema = z.strictObject({
  name: ImageAliasNameSchema,
  description: DescriptionSchema.optional(),
  /** The image's fingerprint, or a prefix of it naming exactly one image (as `lxc image alias create` sends). */
  target: FingerprintPrefixSchema,
  /** LXD's alias type; `""` (LXD's client default) takes the image's. Berth records the image's type. */
  type: z.union([ImageTypeSchema, z.literal("")]).optional(),
});
export type ImageAliasesPost = z.infer<typeof ImageAliasesPostSchema>;

/** `POST /1.0/images/aliases/NAME`: rename. */
export const ImageAliasPostSchema = z.strictObject({ name: ImageAliasNameSchema });
export type ImageAliasPost = z.infer<typeof ImageAliasPostSchema>;

/** An alias entry as listed (LXD `ImageAliasesEntry`). */
export const ImageAliasesEntrySchema = z.strictObject({
  name: ImageAliasNameSchema,
  description: DescriptionSchema,
  target: FingerprintSchema,
  type: ImageTypeSchema,
});
export type ImageAliasesEntry = z.infer<typeof ImageAliasesEntrySchema>;
