import { z } from "zod";
import { UnsignedIntSchema } from "./primitives.js";

/*
 * Decoding the way LXD and Incus (Go, encoding/json) decode what members send: a field that
 * is missing or null takes its zero value (0, "", false, an empty list, a zero struct), a
 * field Berth does not know is ignored. Members on older and newer LXD/Incus releases send
 * different field sets; refusing one would take the member out of scheduling for a
 * difference Go clients never notice. A field that is present still has to have its type
 * and make sense (no negative sizes): that is a 400, naming the field.
 *
 * Wire JSON Schemas are generated for input (`io: "input"`), so these fields show as
 * optional and nullable, which is what a member may send.
 */

/** `schema`, or its Go zero value when the field is missing or null. */
export function goZero<T extends z.ZodType>(schema: T, zero: z.input<T>) {
  return schema.nullish().transform((value): z.output<T> => value ?? schema.parse(zero));
}

/** A Go struct: missing fields take zero values (each field schema says which), unknown fields are dropped. */
export function goStruct<Shape extends z.ZodRawShape>(shape: Shape) {
  return goZero(z.object(shape), {} as z.input<z.ZodObject<Shape>>);
}

/** A Go `uint64` (sizes and counts): never negative. */
export const goUint = goZero(UnsignedIntSchema, 0);
/** A Go `int64`. */
export const goInt = goZero(z.number().int(), 0);
export const goFloat = goZero(z.number(), 0);
export const goString = goZero(z.string(), "");
export const goBool = goZero(z.boolean(), false);

/** A Go slice (nil, sent as null or left out, reads as empty). */
export function goSlice<T extends z.ZodType>(item: T) {
  return goZero(z.array(item), []);
}

/** A Go map keyed by name (nil reads as empty). */
export function goMap<T extends z.ZodType>(value: T) {
  return goZero(z.record(z.string().min(1), value), {});
}
