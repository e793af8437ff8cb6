import { describe, expect, it } from "vitest";
import { DEFAULT_LISTEN, parseDaemonOptions, parseListen, USAGE, UsageError } from "./options.js";

describe("berthd options", () => {
  it("allows --placement-noauth only with a loopback listener or the socket alone", () => {
    const env = { BERTH_SOCKET: "/tmp/x.sock" };
    expect(parseDaemonOptions(["--placement-noauth"], env).placementNoauth).toBe(true);
    expect(parseDaemonOptions(["--placement-noauth", "--listen", "[::1]:9000"], env).placementNoauth).toBe(
      true,
    );
    expect(parseDaemonOptions(["--placement-noauth", "--listen", "none"], env).placementNoauth).toBe(true);
    expect(() => parseDaemonOptions(["--placement-noauth", "--listen", "0.0.0.0:8443"], env)).toThrow(
      new UsageError(
        '--placement-noauth needs a loopback listener (127.0.0.1, ::1, localhost) or the socket alone, not "0.0.0.0"',
      ),
    );
    expect(parseDaemonOptions([], env).placementNoauth).toBe(false);
  });

  it("defaults to berth.db, loopback TCP and the shared socket path", () => {
    const options = parseDaemonOptions([], { BERTH_SOCKET: "/tmp/x.sock" });
    expect(options.db).toBe("berth.db");
    expect(options.listen).toEqual(parseListen(DEFAULT_LISTEN));
    expect(options.listen?.host).toBe("127.0.0.1");
    expect(options.socket).toBe("/tmp/x.sock");
    expect(options.tls).toBeUndefined();
    expect(options.demo).toBe(false);
  });

  it("reads environment variables, and flags win over them", () => {
    const env = {
      BERTH_DB: "/var/lib/berth.db",
      BERTH_LISTEN: "0.0.0.0:9000",
      BERTH_SOCKET: "none",
      BERTH_TICK: "2",
    };
    const fromEnv = parseDaemonOptions([], env);
    expect(fromEnv).toMatchObject({
      db: "/var/lib/berth.db",
      listen: { host: "0.0.0.0", port: 9000 },
      socket: undefined,
      tickSeconds: 2,
    });
    const flags = parseDaemonOptions(["--db", "a.db", "--listen", "[::1]:8443", "--demo"], env);
    expect(flags).toMatchObject({ db: "a.db", listen: { host: "::1", port: 8443 }, demo: true });
    expect(parseDaemonOptions([], { BERTH_STATE_DIR: "/var/lib/berth" }).stateDir).toBe("/var/lib/berth");
    expect(parseDaemonOptions(["--state-dir", "s"], { BERTH_STATE_DIR: "/x" }).stateDir).toBe("s");
    // LXD's way: berthd always has a state directory (its own certificate) unless told "none".
    const root = process.getuid?.() === 0;
    expect(parseDaemonOptions([], { XDG_STATE_HOME: "/xdg" }).stateDir).toBe(
      root ? "/var/lib/berth" : "/xdg/berth",
    );
    expect(parseDaemonOptions([], { HOME: "/home/u" }).stateDir).toBe(
      root ? "/var/lib/berth" : "/home/u/.local/state/berth",
    );
    expect(parseDaemonOptions(["--state-dir", "none"], {}).stateDir).toBeUndefined();
    expect(parseDaemonOptions([], { BERTH_STATE_DIR: "none" }).stateDir).toBeUndefined();
  });

  it("takes a PostgreSQL URL and its connection settings; the lock bound defaults per database", () => {
    const postgres = parseDaemonOptions(
      ["--db", "postgres://berth@db:5432/berth", "--db-pool", "20", "--db-lock-timeout", "1500"],
      { BERTH_DB_READ_POOL: "6", BERTH_SOCKET: "none" },
    );
    expect(postgres).toMatchObject({
      db: "postgres://berth@db:5432/berth",
      database: { poolSize: 20, readPoolSize: 6, lockTimeoutMs: 1500, statementTimeoutMs: 30_000 },
    });
    expect(parseDaemonOptions(["--db", "postgresql://db/berth"], {}).database.lockTimeoutMs).toBe(5_000);
    expect(parseDaemonOptions(["--db", "a.db"], {}).database.lockTimeoutMs).toBe(10_000);
    expect(() => parseDaemonOptions(["--db-pool", "0"], {})).toThrow(/--db-pool/);
    expect(USAGE).toContain("Several servers on one PostgreSQL database");
  });

  it("takes the change log's retention in whole seconds, at least 10, default 15 minutes", () => {
    expect(parseDaemonOptions([], {}).database.feedRetentionMs).toBe(15 * 60_000);
    expect(parseDaemonOptions(["--feed-retention", "60"], {}).database.feedRetentionMs).toBe(60_000);
    expect(parseDaemonOptions([], { BERTH_FEED_RETENTION: "10" }).database.feedRetentionMs).toBe(10_000);
    for (const bad of ["9", "0", "-60", "1.5", "abc", "", "1e400"])
      expect(() => parseDaemonOptions([`--feed-retention=${bad}`], {})).toThrow(
        `Invalid --feed-retention "${bad}": expected a whole number of seconds, at least 10`,
      );
    expect(USAGE).toContain("--feed-retention SECONDS");
  });

  it("takes the group commit's delay in milliseconds, 0 turning it off", () => {
    expect(parseDaemonOptions(["--db", "postgres://db/berth"], {}).database.commitDelayMs).toBe(2);
    expect(parseDaemonOptions(["--db-commit-delay", "0"], {}).database.commitDelayMs).toBe(0);
    expect(parseDaemonOptions([], { BERTH_DB_COMMIT_DELAY: "0.5" }).database.commitDelayMs).toBe(0.5);
    for (const bad of ["-1", "abc", "", "5000"])
      expect(() => parseDaemonOptions([`--db-commit-delay=${bad}`], {})).toThrow(
        `Invalid --db-commit-delay "${bad}": expected milliseconds from 0 to 1000`,
      );
  });

  it("orders ties by a seed of its own on PostgreSQL, by join order on SQLite, or as told", () => {
    expect(parseDaemonOptions(["--db", "a.db"], {}).tieSeed).toBeUndefined();
    const drawn = new Set(
      Array.from({ length: 4 }, () => parseDaemonOptions(["--db", "postgres://db/berth"], {}).tieSeed),
    );
    for (const seed of drawn) expect(Number.isInteger(seed)).toBe(true);
    expect(drawn.size).toBeGreaterThan(1);
    expect(
      parseDaemonOptions(["--db", "postgres://db/berth", "--tie-seed", "join"], {}).tieSeed,
    ).toBeUndefined();
    expect(parseDaemonOptions(["--tie-seed", "42"], {}).tieSeed).toBe(42);
    expect(parseDaemonOptions([], { BERTH_TIE_SEED: "4294967295" }).tieSeed).toBe(4294967295);
    expect(typeof parseDaemonOptions(["--tie-seed", "random"], {}).tieSeed).toBe("number");
    for (const bad of ["-1", "1.5", "4294967296", "often", ""])
      expect(() => parseDaemonOptions([`--tie-seed=${bad}`], {})).toThrow(`Invalid --tie-seed "${bad}"`);
  });

  it("takes the scriptlet worker count (0: on the event loop) and a fixed worker heap", () => {
    expect(parseDaemonOptions([], {})).toMatchObject({ scriptletWorkers: 2, scriptletHeapMb: undefined });
    expect(parseDaemonOptions(["--scriptlet-workers", "0"], {}).scriptletWorkers).toBe(0);
    expect(
      parseDaemonOptions([], { BERTH_SCRIPTLET_WORKERS: "4", BERTH_SCRIPTLET_HEAP_MB: "96" }),
    ).toMatchObject({ scriptletWorkers: 4, scriptletHeapMb: 96 });
    expect(() => parseDaemonOptions(["--scriptlet-workers", "1.5"], {})).toThrow(
      'Invalid --scriptlet-workers "1.5": expected a whole number from 0 to 64',
    );
    expect(() => parseDaemonOptions(["--scriptlet-heap-mb", "0"], {})).toThrow(/--scriptlet-heap-mb/);
  });

  it("rejects bad values with a message naming the option", () => {
    expect(() => parseListen("localhost")).toThrow(UsageError);
    expect(() => parseListen("localhost")).toThrow(/--listen/);
    expect(() => parseDaemonOptions(["--tls-cert", "c.pem"], {})).toThrow(/--tls-key/);
    expect(() => parseDaemonOptions(["--listen", "none", "--socket", "none"], {})).toThrow(
      /Nothing to listen on/,
    );
    expect(() => parseDaemonOptions(["--body-limit", "-5"], {})).toThrow(/--body-limit/);
    expect(() => parseDaemonOptions(["--log-level", "loud"], {})).toThrow(/--log-level/);
    expect(() => parseDaemonOptions(["--bogus"], {})).toThrow();
    expect(() => parseDaemonOptions(["--socket-group", "no-such-group-xyz"], {})).toThrow(
      'Invalid --socket-group "no-such-group-xyz": no such group in /etc/group',
    );
  });

  it("takes the socket's group as a number or a name from /etc/group", () => {
    expect(parseDaemonOptions(["--socket-group", "4242"], {}).socketGroup).toBe(4242);
    expect(parseDaemonOptions([], { BERTH_SOCKET_GROUP: "root" }).socketGroup).toBe(0);
    expect(parseDaemonOptions([], {}).socketGroup).toBeUndefined();
  });
});
