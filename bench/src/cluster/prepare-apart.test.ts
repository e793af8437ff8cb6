import { readdirSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { openStore } from "@berth/adapter-sqlite";
import { hashTokenSecret } from "@berth/server";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../measure/temp.js";
import { prepareClusterFile } from "./prepare-apart.js";

/** Files this process has open under `dir` (Linux /proc). */
function openFilesUnder(dir: string): string[] {
  return readdirSync("/proc/self/fd")
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return "";
      }
    })
    .filter((path) => path.startsWith(dir));
}

const temp = tempDir("prepare-apart-test");
afterEach(() => temp.cleanup());

describe("cluster file prepared in a child process", () => {
  it("holds the cluster and a working admin token, and leaves this process nothing open on the file", async () => {
    const db = join(temp.dir, "berth.db");
    const token = await prepareClusterFile(db, { members: 20, instances: 200 });
    expect(openFilesUnder(temp.dir)).toEqual([]);
    const store = await openStore(db);
    try {
      const snapshot = await store.snapshot();
      expect(snapshot.members).toHaveLength(20);
      expect(await store.tokens.findByHash(hashTokenSecret(token))).toMatchObject({
        admin: true,
        name: "bench",
      });
    } finally {
      await store.close();
    }
  });
});
