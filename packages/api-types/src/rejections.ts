import { z } from "zod";
import { MemberNameSchema } from "./names.js";
import { UnsignedIntSchema } from "./primitives.js";

/**
 * Members turned down for one reason: how many, the text ("3 members have too little
 * MEMORY_MB"), the first few by name, and whether the reason is resources (capacity,
 * inventory) rather than policy. `code` groups identical reasons (`offline`,
 * `capacity:MEMORY_MB`, `lack:CUSTOM_FPGA`, `spread:GROUP`...).
 */
export const RejectionGroupSchema = z.strictObject({
  code: z.string().min(1),
  count: UnsignedIntSchema,
  text: z.string().min(1),
  members: z.array(MemberNameSchema),
  capacity: z.boolean(),
});
export type RejectionGroup = z.infer<typeof RejectionGroupSchema>;
