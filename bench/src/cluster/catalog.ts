/**
 * The fixed vocabulary of a synthetic cluster: projects, custom resource
 * classes and the instance sizes instances are drawn from. Shared by the
 * in-memory seeder and the SQLite generator so both build the same cluster.
 */

/** Ten projects, as a multi-tenant cluster would have; `default` always exists. */
export const PROJECTS: readonly string[] = [
  "default",
  ...Array.from({ length: 9 }, (_, i) => `team-${i + 2}`),
];

/** Custom classes (OpenStack Placement `CUSTOM_*`): accelerators on some members. */
export const CUSTOM_CLASSES = { gpu: "CUSTOM_GPU", fpga: "CUSTOM_FPGA" } as const;

export interface InstanceSize {
  vcpus: number;
  memoryMiB: number;
  diskGiB: number;
}

/**
 * Sizes weighted toward small instances (the usual shape of a container
 * fleet): index `n % INSTANCE_SIZES.length` picks instance n's size.
 */
export const INSTANCE_SIZES: readonly InstanceSize[] = [
  { vcpus: 1, memoryMiB: 512, diskGiB: 10 },
  { vcpus: 1, memoryMiB: 1024, diskGiB: 10 },
  { vcpus: 1, memoryMiB: 1024, diskGiB: 20 },
  { vcpus: 2, memoryMiB: 2048, diskGiB: 20 },
  { vcpus: 2, memoryMiB: 2048, diskGiB: 20 },
  { vcpus: 2, memoryMiB: 4096, diskGiB: 40 },
  { vcpus: 1, memoryMiB: 512, diskGiB: 10 },
  { vcpus: 4, memoryMiB: 8192, diskGiB: 80 },
  { vcpus: 2, memoryMiB: 2048, diskGiB: 20 },
  { vcpus: 1, memoryMiB: 1024, diskGiB: 10 },
];

/** Every how-many-th member is an aarch64 machine (its instances are aarch64 too). */
export const AARCH64_EVERY = 20;
/** Every how-many-th member has GPUs / an FPGA. */
export const GPU_EVERY = 8;
export const FPGA_EVERY = 32;
export const GPUS_PER_MEMBER = 4;
export const FPGAS_PER_MEMBER = 2;
/** Every how-many-th instance is a reservation (Ganeti forthcoming instance). */
export const FORTHCOMING_EVERY = 50;
/** Timestamp written on generated records (a fixed value keeps runs comparable). */
export const GENERATED_AT = "2026-01-01T00:00:00.000Z";
