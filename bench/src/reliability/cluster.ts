import { join } from "node:path";
import { openStore } from "@berth/adapter-sqlite";
import { Engine, type MemberInput } from "@berth/engine";
import { BENCH_OFFLINE_THRESHOLD_S } from "../cluster/shape.js";
import { tempDir } from "../measure/temp.js";
import { createToken } from "../server/berthd.js";

export interface SmallCluster {
  dir: string;
  db: string;
  token: string;
  cleanup(): void;
}

/**
 * A fresh SQLite file with `members` members of the given inventories, made
 * through the engine as berthd would, and an admin token for it.
 */
export async function smallCluster(
  prefix: string,
  members: number,
  inventories: NonNullable<MemberInput["inventories"]>,
  projects: string[] = [],
): Promise<SmallCluster> {
  const { dir, cleanup } = tempDir(prefix);
  const db = join(dir, "berth.db");
  return { dir, db, token: await clusterFile(db, members, inventories, projects), cleanup };
}

/** Makes the cluster in the SQLite file `db` (see smallCluster); answers an admin token for it. */
export async function clusterFile(
  db: string,
  members: number,
  inventories: NonNullable<MemberInput["inventories"]>,
  projects: string[] = [],
): Promise<string> {
  const store = await openStore(db);
  try {
    const engine = await Engine.open({ store });
    await engine.setConfig({ "cluster.offline_threshold": BENCH_OFFLINE_THRESHOLD_S });
    for (const project of projects)
      await engine.catalog.createProject({ name: project, description: "", config: {} });
    for (let i = 1; i <= members; i++) await engine.createMember({ name: `node${i}`, inventories });
  } finally {
    await store.close();
  }
  return createToken(db, "admin");
}
