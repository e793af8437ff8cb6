const GiB = 1024 ** 3;

/**
 * A heartbeat body as an LXD member sends it (`ClusterMemberState`):
 * `logicalCpus` only from LXD 6.2 on (left out: an older member), `poolGiB`
 * the size of its `default` storage pool (left out: no pool reported).
 */
export function lxdMemberState(ramGiB: number, logicalCpus?: number, poolGiB?: number) {
  return {
    sysinfo: {
      uptime: 5000,
      load_averages: [0.2, 0.1, 0.05],
      total_ram: ramGiB * GiB,
      free_ram: GiB,
      shared_ram: 0,
      buffered_ram: 0,
      total_swap: 0,
      free_swap: 0,
      processes: 200,
      ...(logicalCpus !== undefined ? { logical_cpus: logicalCpus } : {}),
    },
    storage_pools:
      poolGiB === undefined
        ? {}
        : { default: { space: { used: GiB, total: poolGiB * GiB }, inodes: { used: 10, total: 1000 } } },
  };
}
