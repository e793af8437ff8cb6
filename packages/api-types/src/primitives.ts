import { z } from "zod";

/** Largest value OpenStack Placement accepts for inventory integers (a signed 32-bit int). */
export const MAX_INT32 = 2147483647;

/**
 * A count or byte size. LXD declares these `uint64`; on the wire they are JSON numbers,
 * so values above 2^53 cannot be represented exactly (no real host reaches that).
 */
export const UnsignedIntSchema = z.number().int().min(0);

/** LXD config maps (`map[string]string`): every value is a string, even numbers and booleans. */
export const ConfigMapSchema = z.record(z.string(), z.string());

/** One device: its keys (`type`, `path`, `pool`, `size`, ...) all carry string values, as in LXD. */
export const DeviceSchema = z.record(z.string(), z.string());

/** Devices by name (`root`, `eth0`, ...). */
export const DevicesMapSchema = z.record(z.string().min(1), DeviceSchema);

/** Timestamps as LXD writes them: RFC 3339 with an offset or `Z`, any sub-second precision. */
export const TimestampSchema = z.iso.datetime({ offset: true });

/** Free text (descriptions). Capped so a request body cannot smuggle megabytes through one field. */
export const DescriptionSchema = z.string().max(4096);

/**
 * Architecture names as LXD spells them (`shared/osarch`). The architecture filter compares
 * these strings, so a typo such as `amd64` must be rejected rather than silently never match.
 */
export const ARCHITECTURES = [
  "i686",
  "x86_64",
  "armv6l",
  "armv7l",
  "armv8l",
  "aarch64",
  "ppc",
  "ppc64",
  "ppc64le",
  "s390x",
  "mips",
  "mips64",
  "riscv32",
  "riscv64",
  "loongarch64",
] as const;

export const ArchitectureSchema = z.enum(ARCHITECTURES);
export type Architecture = z.infer<typeof ArchitectureSchema>;
