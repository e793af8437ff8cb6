/**
 * The change feed's reads on a real SQLite file: a store reads its own
 * writes' entries exactly as another store on the file reads them, each
 * once; an entry another connection committed in between is never skipped.
 */
import { symlinkSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { inventoryOf, memberOf } from "../../test-support/records.fixture.js";
import { makeTempDir } from "../../test-support/temp-dir.fixture.js";
import { openStore } from "../open-store.js";

const dir = makeTempDir();
afterAll(() => dir.remove());

const member = (name: string) => memberOf(name, { VCPU: inventoryOf(4) });

/**
 * Two stores on one file through two paths: the second's connection is not counted as this
 * process's own on that file, so only SQLite itself (data_version, the entries' ids) tells the
 * first store of its writes.
 */
async function storesOnTwoPaths(name: string) {
  const file = dir.file(`${name}.db`);
  const alias = dir.file(`${name}-alias.db`);
  symlinkSync(file, alias);
  return { mine: await openStore(file), theirs: await openStore(alias) };
}

describe("SQLite change feed", () => {
  it("answers the store's own writes as a read of the log does", async () => {
    const file = dir.file("own.db");
    const writer = await openStore(file);
    const other = await openStore(file);
    try {
      const start = (await writer.snapshot()).feedCursor!;
      expect(await writer.feed.read(start)).toEqual({ entries: [], cursor: start });
      await writer.createMember(member("a"));
      await writer.createMember(member("b"));
      const own = await writer.feed.read(start);
      expect(own.entries.map((entry) => JSON.stringify(entry))).toEqual([
        expect.stringContaining('"a"'),
        expect.stringContaining('"b"'),
      ]);
      // Another store on the file reads them from the database: the same entries, the same cursor.
      expect(await other.feed.read(start)).toEqual(own);
      // Read once, they are not answered again.
      expect(await writer.feed.read(own.cursor)).toEqual({ entries: [], cursor: own.cursor });
    } finally {
      await writer.close();
      await other.close();
    }
  });

  it("brings another connection's entry committed between the store's own", async () => {
    const { mine, theirs } = await storesOnTwoPaths("between");
    try {
      const start = (await mine.snapshot()).feedCursor!;
      await mine.feed.read(start);
      await theirs.createMember(member("theirs"));
      await mine.createMember(member("mine"));
      const read = await mine.feed.read(start);
      expect(read.entries.map((entry) => JSON.stringify(entry))).toEqual([
        expect.stringContaining('"theirs"'),
        expect.stringContaining('"mine"'),
      ]);
    } finally {
      await mine.close();
      await theirs.close();
    }
  });

  it("after reading back its own write, still brings another connection's later entry", async () => {
    const { mine, theirs } = await storesOnTwoPaths("after-own");
    const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));
    try {
      const start = (await mine.snapshot()).feedCursor!;
      await mine.createMember(member("mine"));
      // The read right after the write takes no data_version key; the one after it does.
      const own = await mine.feed.read(start);
      expect(own.entries).toHaveLength(1);
      expect(await mine.feed.read(own.cursor)).toEqual({ entries: [], cursor: own.cursor });
      await nextTurn();
      await theirs.createMember(member("theirs"));
      await nextTurn();
      const read = await mine.feed.read(own.cursor);
      expect(read.entries.map((entry) => JSON.stringify(entry))).toEqual([
        expect.stringContaining('"theirs"'),
      ]);
      expect(await mine.feed.read(read.cursor)).toEqual({ entries: [], cursor: read.cursor });
    } finally {
      await mine.close();
      await theirs.close();
    }
  });
});
