/**
 * Valid example objects shared by the tests (each test file changes one field to make an
 * invalid one). Kept in one place so every schema is exercised with a realistic object.
 */

export const UUID_A = "0b5f3d1c-3c0b-4e56-9d7e-4f6b2a1c9e10";
export const UUID_B = "7d9c2e4a-1b3f-4a6d-8e5c-9f0a1b2c3d4e";
export const FINGERPRINT = "a".repeat(64);

export const clusterMember = {
  server_name: "node1",
  url: "https://10.0.0.1:8443",
  database: true,
  status: "Online",
  message: "Fully operational",
  architecture: "x86_64",
  roles: ["database-leader", "database"],
  failure_domain: "default",
  description: "",
  config: { "scheduler.instance": "all", "user.rack": "r1" },
  groups: ["default"],
  traits: ["HW_CPU_X86_AVX2", "CUSTOM_GOLD"],
};

export const clusterMemberState = {
  sysinfo: {
    uptime: 3600,
    load_averages: [0.5, 0.25, 0.1],
    total_ram: 17179869184,
    free_ram: 8589934592,
    shared_ram: 0,
    buffered_ram: 1048576,
    total_swap: 0,
    free_swap: 0,
    processes: 312,
    logical_cpus: 8,
  },
  storage_pools: {
    data: { space: { used: 1073741824, total: 107374182400 }, inodes: { used: 1000, total: 6553600 } },
  },
};

export const resources = {
  cpu: {
    architecture: "x86_64",
    sockets: [
      {
        name: "Intel(R) Xeon(R) Gold 6230",
        vendor: "GenuineIntel",
        socket: 0,
        cache: [{ level: 1, type: "Data", size: 32768 }],
        cores: [
          {
            core: 0,
            die: 0,
            threads: [
              { id: 0, numa_node: 0, thread: 0, online: true, isolated: false },
              { id: 1, numa_node: 0, thread: 1, online: true, isolated: false },
            ],
            frequency: 2100,
          },
        ],
        frequency: 2100,
        frequency_minimum: 800,
        frequency_turbo: 3900,
      },
    ],
    total: 2,
  },
  memory: {
    nodes: [{ numa_node: 0, hugepages_used: 0, hugepages_total: 0, used: 4294967296, total: 17179869184 }],
    hugepages_total: 0,
    hugepages_used: 0,
    hugepages_size: 2097152,
    used: 4294967296,
    total: 17179869184,
  },
  gpu: {
    cards: [{ driver: "i915", numa_node: 0, pci_address: "0000:00:02.0", vendor_id: "8086" }],
    total: 1,
  },
  network: { cards: [{ driver: "e1000e", numa_node: 0, ports: [{ id: "eth0", port: 0 }] }], total: 1 },
  storage: { disks: [{ id: "nvme0n1", device: "259:0", size: 512110190592 }], total: 1 },
  usb: { devices: [], total: 0 },
  pci: { devices: [], total: 0 },
  system: { uuid: "4c4c4544-0000-1000-8000-000000000000", vendor: "Dell Inc.", type: "physical" },
};

export const instance = {
  name: "c1",
  uuid: UUID_A,
  description: "",
  type: "container",
  architecture: "x86_64",
  config: { "limits.cpu": "1", "limits.memory": "512MiB" },
  devices: { root: { type: "disk", path: "/", pool: "data", size: "200MiB" } },
  expanded_config: { "limits.cpu": "1", "limits.memory": "512MiB" },
  expanded_devices: { root: { type: "disk", path: "/", pool: "data", size: "200MiB" } },
  profiles: ["default"],
  ephemeral: false,
  stateful: false,
  status: "Placed",
  status_code: 0,
  location: "node2",
  project: "default",
  created_at: "2026-11-20T23:00:00.123456789Z",
  last_used_at: "1970-01-01T00:00:00Z",
  flavor: "",
  forthcoming: false,
  resources: { VCPU: 1, MEMORY_MB: 512 },
};
