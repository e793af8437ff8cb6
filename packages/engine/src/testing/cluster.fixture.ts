/**
 * Test helpers: an engine over a fresh in-memory store with a manual clock,
 * and members described compactly.
 */
import type { InventoryInput } from "@berth/resources";
import { ManualClock } from "../base/clock.js";
import { MemoryLogger } from "../base/logger.js";
import { MemoryStore } from "../memory-store/memory-store.js";
import { Engine, type EngineOptions } from "../services/engine.js";

export interface TestCluster {
  engine: Engine;
  store: MemoryStore;
  clock: ManualClock;
  logger: MemoryLogger;
}

export async function testCluster(options: Partial<EngineOptions> = {}): Promise<TestCluster> {
  const store = options.store instanceof MemoryStore ? options.store : new MemoryStore();
  const clock = new ManualClock();
  const logger = new MemoryLogger();
  const engine = await Engine.open({ store, clock, logger, ...options });
  return { engine, store, clock, logger };
}

export interface MemberSpec {
  vcpu?: number;
  memoryMb?: number;
  diskGb?: number;
  extra?: Record<string, InventoryInput>;
  architecture?: string;
  groups?: string[];
  traits?: string[];
  config?: Record<string, string>;
}

/** Adds a member with explicit inventories (VCPU ratio 1 so numbers read literally). */
export async function addMember(engine: Engine, name: string, spec: MemberSpec = {}) {
  const inventories: Record<string, InventoryInput> = {
    VCPU: { total: spec.vcpu ?? 16 },
    MEMORY_MB: { total: spec.memoryMb ?? 65536 },
    ...(spec.diskGb !== undefined ? { DISK_GB: { total: spec.diskGb } } : {}),
    ...(spec.extra ?? {}),
  };
  return engine.createMember({
    name,
    architecture: spec.architecture ?? "x86_64",
    groups: spec.groups ?? [],
    traits: spec.traits ?? [],
    config: spec.config ?? {},
    inventories,
  });
}

export async function addGroups(engine: Engine, ...names: string[]): Promise<void> {
  for (const name of names) await engine.catalog.createGroup({ name, description: "" });
}

/** Heartbeats every member (keeps them online while a test advances the clock). */
export async function heartbeatAll(engine: Engine): Promise<void> {
  for (const member of engine.listMembers()) await engine.heartbeat(member.record.name);
}
