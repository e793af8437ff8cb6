/**
 * Amounts as an operator reads them. Placement's standard classes carry
 * their unit in the name (MEMORY_MB in MiB, DISK_GB in GiB); every other
 * class is a count.
 */

function trimmed(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

/** Bytes-like units from MiB upwards. */
function scaled(value: number, units: readonly string[]): string {
  let unit = 0;
  let amount = value;
  while (Math.abs(amount) >= 1024 && unit < units.length - 1) {
    amount /= 1024;
    unit += 1;
  }
  const text = trimmed(amount);
  // "1.50" reads "1.5" and "2.00" reads "2"; whole numbers ("1000") keep their zeros.
  return `${text.includes(".") ? text.replace(/\.?0+$/, "") : text} ${units[unit]}`;
}

export function formatAmount(resourceClass: string, amount: number): string {
  if (resourceClass === "MEMORY_MB") return scaled(amount, ["MiB", "GiB", "TiB", "PiB"]);
  if (resourceClass === "DISK_GB") return scaled(amount, ["GiB", "TiB", "PiB"]);
  return Number.isInteger(amount) ? amount.toLocaleString("en-US") : trimmed(amount);
}

/** Short labels for the standard classes in tight columns. */
export function classLabel(resourceClass: string): string {
  if (resourceClass === "MEMORY_MB") return "Memory";
  if (resourceClass === "DISK_GB") return "Disk";
  if (resourceClass === "VCPU") return "vCPU";
  return resourceClass;
}

export function percent(fraction: number): string {
  if (!Number.isFinite(fraction)) return "–";
  return `${Math.round(fraction * 100)}%`;
}

/** "3 s ago", "2 min ago". */
export function ago(then: Date, now: Date = new Date()): string {
  const seconds = Math.max(0, Math.round((now.getTime() - then.getTime()) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  return `${Math.round(minutes / 60)} h ago`;
}
