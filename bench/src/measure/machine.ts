import { availableParallelism, cpus, loadavg, totalmem } from "node:os";

/** What every result records about where it was measured (at least the CPU count and Node version). */
export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  node: string;
  totalMemoryMiB: number;
  loadAverage: number[];
}

export function machineInfo(): MachineInfo {
  return {
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? "unknown",
    node: process.version,
    totalMemoryMiB: Math.round(totalmem() / 2 ** 20),
    loadAverage: loadavg().map((v) => Math.round(v * 100) / 100),
  };
}
