import { formatByteSizeIEC, GiB, MiB } from "@berth/resources";

/**
 * Amounts of a resource class as a person reads them: MEMORY_MB and DISK_GB
 * (and NUMA_MEMORY_MB) become IEC byte sizes, everything else stays a count.
 * Tables only; json/yaml/csv keep the exact integers.
 */
export function formatClassAmount(resourceClass: string, amount: number): string {
  const bytesPerUnit = BYTE_CLASSES[resourceClass];
  if (bytesPerUnit === undefined) return formatCount(amount);
  return formatByteSizeIEC(amount * bytesPerUnit);
}

const BYTE_CLASSES: Record<string, number> = {
  MEMORY_MB: MiB,
  NUMA_MEMORY_MB: MiB,
  DISK_GB: GiB,
};

/** Integers as they are; fractional capacities (allocation ratios) with at most two decimals. */
export function formatCount(amount: number): string {
  return Number.isInteger(amount) ? String(amount) : String(Math.round(amount * 100) / 100);
}

/** Byte counts in tables, e.g. 8589934592 -> "8.00GiB". */
export function formatBytes(bytes: number): string {
  return formatByteSizeIEC(bytes);
}
