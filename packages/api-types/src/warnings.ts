/**
 * LXD's `warnings` API extension (`/1.0/warnings`, `lxc warning
 * list/show/ack/delete`): LXD's `Warning` struct field for field, and the
 * body of `PUT`/`PATCH /1.0/warnings/{uuid}`, which sets the status only.
 */
import { z } from "zod";

export const WARNING_STATUSES = ["new", "acknowledged", "resolved"] as const;
export const WarningStatusSchema = z.enum(WARNING_STATUSES);
export type WarningStatus = z.infer<typeof WarningStatusSchema>;

export const WARNING_SEVERITIES = ["low", "moderate", "high"] as const;
export type WarningSeverity = (typeof WARNING_SEVERITIES)[number];

export const WarningSchema = z.object({
  uuid: z.string(),
  /** The member the warning is about, "" when it is about the whole cluster. */
  location: z.string(),
  project: z.string(),
  type: z.string(),
  count: z.number().int(),
  first_seen_at: z.string(),
  last_seen_at: z.string(),
  last_message: z.string(),
  severity: z.enum(WARNING_SEVERITIES),
  status: WarningStatusSchema,
  entity_url: z.string(),
});
export type Warning = z.infer<typeof WarningSchema>;

/** LXD's `WarningPut`: an operator acknowledges (`lxc warning ack`) or re-opens a warning; "resolved" is Berth's to set. */
export const WarningPutSchema = z.strictObject({
  status: z.enum(["new", "acknowledged"]),
});
export type WarningPut = z.infer<typeof WarningPutSchema>;
