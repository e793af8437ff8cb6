/**
 * Resources documents as real members send them, trimmed to one socket: an LXD 4.0 member
 * (before the usb/pci/system sections; Go nil slices sent as null) and an Incus 6 member
 * (its `load` section and fields LXD does not have).
 */

export const lxd4Resources = {
  cpu: {
    architecture: "x86_64",
    sockets: [
      {
        name: "Intel(R) Core(TM) i5-8250U CPU @ 1.60GHz",
        vendor: "GenuineIntel",
        socket: 0,
        cache: [
          { level: 1, type: "Data", size: 32768 },
          { level: 2, type: "Unified", size: 262144 },
        ],
        cores: [
          {
            core: 0,
            die: 0,
            threads: [
              { id: 0, numa_node: 0, thread: 0, online: true, isolated: false },
              { id: 4, numa_node: 0, thread: 1, online: true, isolated: false },
            ],
            frequency: 1600,
          },
          {
            core: 1,
            die: 0,
            threads: [
              { id: 1, numa_node: 0, thread: 0, online: true, isolated: false },
              { id: 5, numa_node: 0, thread: 1, online: true, isolated: false },
            ],
            frequency: 1600,
          },
        ],
        frequency: 1600,
        frequency_minimum: 400,
        frequency_turbo: 3400,
      },
    ],
    total: 4,
  },
  memory: {
    nodes: null,
    hugepages_total: 0,
    hugepages_used: 0,
    hugepages_size: 2097152,
    used: 3221225472,
    total: 8201117696,
  },
  gpu: { cards: null, total: 0 },
  network: { cards: null, total: 0 },
  storage: {
    disks: [
      {
        id: "sda",
        device: "8:0",
        model: "Samsung SSD 860",
        type: "sata",
        read_only: false,
        size: 500107862016,
        removable: false,
        numa_node: 0,
        device_path: "pci-0000:00:17.0-ata-1",
        block_size: 512,
        rpm: 0,
        firmware_version: "RVT02B6Q",
        serial: "S3Z2NB0K123456",
        partitions: [{ id: "sda1", device: "8:1", read_only: false, size: 500106813440, partition: 1 }],
      },
    ],
    total: 1,
  },
};

export const incusResources = {
  cpu: {
    architecture: "aarch64",
    sockets: [
      {
        name: "Neoverse-N1",
        vendor: "ARM",
        socket: 0,
        cache: null,
        cores: [
          {
            core: 0,
            die: 0,
            threads: [{ id: 0, numa_node: 0, thread: 0, online: true, isolated: false }],
            frequency: 3000,
          },
        ],
        frequency: 3000,
        address_sizes: { physical_bits: 48, virtual_bits: 48 },
      },
    ],
    total: 16,
  },
  memory: {
    nodes: [{ numa_node: 0, hugepages_used: 0, hugepages_total: 0, used: 8589934592, total: 68719476736 }],
    hugepages_total: 0,
    hugepages_used: 0,
    hugepages_size: 2097152,
    used: 8589934592,
    total: 68719476736,
  },
  gpu: { cards: [], total: 0 },
  network: {
    cards: [{ driver: "mlx5_core", numa_node: 0, vendor_id: "15b3", product_id: "1017" }],
    total: 1,
  },
  storage: { disks: [{ id: "nvme0n1", device: "259:0", type: "nvme", size: 960197124096 }], total: 1 },
  usb: { devices: [], total: 0 },
  pci: { devices: [{ driver: "nvme", pci_address: "0000:01:00.0", iommu_group: 3, vpd: {} }], total: 1 },
  system: {
    uuid: "0a2b0c4d-0000-4000-8000-000000000016",
    vendor: "Ampere",
    type: "physical",
    motherboard: {},
  },
  load: { Average1Min: 0.42, Average5Min: 0.37, Average10Min: 0.31, Processes: 611 },
};
