import { describe, expect, it } from "vitest";
import { parseStoreUrl, StoreUrlError } from "./store-url.js";

describe("parseStoreUrl", () => {
  it("treats plain paths as files", () => {
    expect(parseStoreUrl("berth.db")).toEqual({ kind: "file", path: "berth.db" });
    expect(parseStoreUrl("/var/lib/berth/berth.db")).toEqual({
      kind: "file",
      path: "/var/lib/berth/berth.db",
    });
    expect(parseStoreUrl("C:\\berth\\berth.db")).toEqual({ kind: "file", path: "C:\\berth\\berth.db" });
  });

  it("accepts file: URLs in their usual spellings", () => {
    expect(parseStoreUrl("file:berth.db")).toEqual({ kind: "file", path: "berth.db" });
    expect(parseStoreUrl("file:/tmp/a.db")).toEqual({ kind: "file", path: "/tmp/a.db" });
    expect(parseStoreUrl("file:///tmp/a%20b.db")).toEqual({ kind: "file", path: "/tmp/a b.db" });
    expect(parseStoreUrl("file://localhost/tmp/a.db")).toEqual({ kind: "file", path: "/tmp/a.db" });
  });

  it("recognises in-memory databases", () => {
    expect(parseStoreUrl(":memory:")).toEqual({ kind: "memory" });
    expect(parseStoreUrl("file::memory:")).toEqual({ kind: "memory" });
  });

  it("sends libsql, http(s) and ws(s) URLs to a remote server, with an optional token", () => {
    expect(parseStoreUrl("libsql://db.example.com")).toEqual({
      kind: "remote",
      url: "libsql://db.example.com",
      authToken: undefined,
    });
    expect(parseStoreUrl("https://db.example.com:8080", "t0k")).toEqual({
      kind: "remote",
      url: "https://db.example.com:8080",
      authToken: "t0k",
    });
    expect(parseStoreUrl("http://127.0.0.1:8080").kind).toBe("remote");
    expect(parseStoreUrl("wss://db.example.com").kind).toBe("remote");
  });

  it("names the problem with bad URLs", () => {
    expect(() => parseStoreUrl("")).toThrow(StoreUrlError);
    expect(() => parseStoreUrl("  ")).toThrow(/empty/);
    expect(() => parseStoreUrl("postgres://db/berth")).toThrow(/Unsupported store URL scheme "postgres:"/);
    expect(() => parseStoreUrl("file:")).toThrow(/no file path/);
    expect(() => parseStoreUrl("libsql://")).toThrow(/libsql:\/\//);
  });
});
