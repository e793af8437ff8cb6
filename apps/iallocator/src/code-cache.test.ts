/** Running a CommonJS file with V8's code cache beside it: used when valid, refused and rebuilt when not. */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cachePathOf, loadBundle } from "./code-cache.js";

const SOURCE = `"use strict";
const { basename } = require("node:path");
function square(n) { return n * n; }
exports.answer = square(6) + 6;
exports.file = basename(__filename);
exports.squares = (up) => Array.from({ length: up }, (_, i) => square(i));
`;

interface Exports {
  answer: number;
  file: string;
  squares(up: number): number[];
}

let dir: string;
let bundle: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "berth-code-cache-"));
  bundle = join(dir, "bundle.cjs");
  writeFileSync(bundle, SOURCE);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("loadBundle", () => {
  it("runs the file as CommonJS (exports, require, __filename), with no cache at first", () => {
    const loaded = loadBundle<Exports>(bundle);
    expect(loaded.cache).toBe("absent");
    expect(loaded.exports.answer).toBe(42);
    expect(loaded.exports.file).toBe("bundle.cjs");
    expect(loaded.exports.squares(4)).toEqual([0, 1, 4, 9]);
  });

  it("writes a cache that the next load uses, and leaves no partial file", () => {
    const first = loadBundle<Exports>(bundle);
    first.exports.squares(3);
    first.saveCache();
    expect(readdirSync(dir).sort()).toEqual(["bundle.cjs", "bundle.cjs.cache"]);
    const second = loadBundle<Exports>(bundle);
    expect(second.cache).toBe("accepted");
    expect(second.exports.answer).toBe(42);
  });

  it("refuses a cache that is not V8's for this source, and still runs the file", () => {
    writeFileSync(cachePathOf(bundle), "not a code cache");
    const loaded = loadBundle<Exports>(bundle);
    expect(loaded.cache).toBe("rejected");
    expect(loaded.exports.answer).toBe(42);
    loaded.saveCache();
    expect(loadBundle<Exports>(bundle).cache).toBe("accepted");
  });

  it("refuses the cache of another source of the same length (V8 checks only the length)", () => {
    loadBundle<Exports>(bundle).saveCache();
    writeFileSync(bundle, SOURCE.replace("square(6) + 6", "square(6) + 7"));
    const loaded = loadBundle<Exports>(bundle);
    expect(loaded.cache).toBe("rejected");
    expect(loaded.exports.answer).toBe(43);
  });

  it("keeps going when the cache cannot be written", () => {
    const loaded = loadBundle<Exports>(bundle);
    rmSync(dir, { recursive: true, force: true });
    expect(() => loaded.saveCache()).not.toThrow();
    expect(existsSync(cachePathOf(bundle))).toBe(false);
  });

  it("throws as readFileSync does when the file is missing", () => {
    expect(() => loadBundle(join(dir, "missing.cjs"))).toThrow(expect.objectContaining({ code: "ENOENT" }));
  });
});
