import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { ExitCode } from "../exit-codes.js";
import {
  addressProblem,
  configPath,
  defaultConfig,
  loadConfig,
  parseConfig,
  saveConfig,
} from "./config-file.js";
import { resolveConnection } from "./connection.js";

/** A config folder of its own for the running test, removed when it ends. */
function tempEnv(): { BERTH_CONFIG_DIR: string } {
  const dir = mkdtempSync(join(tmpdir(), "berth-cli-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return { BERTH_CONFIG_DIR: dir };
}

describe("config file", () => {
  it("defaults to the local socket when there is no file", () => {
    expect(loadConfig(tempEnv())).toEqual(defaultConfig());
  });

  it("saves and loads remotes, readable by the owner only", () => {
    const env = tempEnv();
    const config = defaultConfig();
    config.remotes.prod = { addr: "https://b.example:8443", token: "s3cret", project: "web" };
    config.defaultRemote = "prod";
    const path = saveConfig(config, env);
    expect(path).toBe(configPath(env));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, "utf8")).toContain("default-remote: prod");
    expect(loadConfig(env)).toEqual(config);
  });

  it("names the problem in a bad file", () => {
    const env = tempEnv();
    writeFileSync(configPath(env), "remotes:\n  x: {addr: ftp://h}\n");
    expect(() => loadConfig(env)).toThrow(
      `Invalid config file ${configPath(env)}: remote "x": unsupported scheme "ftp:"`,
    );
    const bad = (data: unknown) => () => parseConfig(data, "c.yml");
    expect(bad([])).toThrow("Invalid config file c.yml: expected a mapping");
    expect(bad({ extra: 1 })).toThrow('unknown key "extra"');
    expect(bad({ "default-remote": "nope" })).toThrow('default-remote "nope" is not in remotes');
    expect(bad({ remotes: { a: { addr: "unix://", colour: 1 } } })).toThrow(
      'remote "a" has unknown key "colour"',
    );
    try {
      bad([])();
    } catch (error) {
      expect((error as { exitCode: number }).exitCode).toBe(ExitCode.usage);
    }
  });

  it("checks addresses", () => {
    expect(addressProblem("unix://")).toBeUndefined();
    expect(addressProblem("unix:///run/b.sock")).toBeUndefined();
    expect(addressProblem("http://127.0.0.1:8443")).toBeUndefined();
    expect(addressProblem("host:8443")).toContain("unsupported scheme");
    expect(addressProblem("https://h:1/path")).toBe('"https://h:1/path" must not have a path');
    expect(addressProblem("not a url")).toContain("is not a URL");
  });
});

describe("choosing the server", () => {
  const config = defaultConfig();
  config.remotes.prod = { addr: "https://b.example:8443", token: "t-prod", project: "web" };

  it("uses --remote URL as given, with --token", () => {
    expect(resolveConnection({ remote: "http://127.0.0.1:9", token: "t" }, config, {})).toEqual({
      label: "http://127.0.0.1:9",
      options: { url: "http://127.0.0.1:9", token: "t" },
    });
  });
  it("looks a remote name up, taking its token and project", () => {
    expect(resolveConnection({ remote: "prod" }, config, {}).options).toEqual({
      url: "https://b.example:8443",
      token: "t-prod",
      project: "web",
    });
    expect(
      resolveConnection({ remote: "prod", project: "ops" }, config, { BERTH_TOKEN: "env" }).options,
    ).toEqual({
      url: "https://b.example:8443",
      token: "env",
      project: "ops",
    });
  });
  it("refuses an unknown remote, listing the known ones", () => {
    expect(() => resolveConnection({ remote: "nope" }, config, {})).toThrow(
      'Remote "nope" not found (known remotes: local, prod); add it with "berth remote add"',
    );
  });
  it("prefers --socket, then BERTH_SOCKET, then the default remote", () => {
    expect(
      resolveConnection({ socket: "/tmp/a.sock" }, config, { BERTH_SOCKET: "/tmp/b.sock" }).options,
    ).toEqual({ socketPath: "/tmp/a.sock" });
    expect(resolveConnection({}, config, { BERTH_SOCKET: "/tmp/b.sock" }).options).toEqual({
      socketPath: "/tmp/b.sock",
    });
    // "local" = unix://: no socketPath, so the client resolves berthd's default socket itself.
    expect(resolveConnection({}, config, {})).toEqual({ label: "local", options: {} });
    expect(resolveConnection({}, { ...config, defaultRemote: "prod" }, {}).label).toBe("prod");
  });
  it("reads the CA file of an https remote, naming a missing one", () => {
    const dir = mkdtempSync(join(tmpdir(), "berth-ca-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const pem = join(dir, "ca.pem");
    writeFileSync(pem, "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
    const withCa = {
      ...config,
      remotes: { ...config.remotes, tls: { addr: "https://b.example:8443", ca: pem } },
    };
    expect(resolveConnection({ remote: "tls" }, withCa, {}).options.ca).toContain("BEGIN CERTIFICATE");
    expect(resolveConnection({ remote: "https://h:1", ca: pem }, config, {}).options.ca).toContain(
      "BEGIN CERTIFICATE",
    );
    expect(() => resolveConnection({ remote: "https://h:1", ca: join(dir, "none.pem") }, config, {})).toThrow(
      `Cannot read the CA file ${join(dir, "none.pem")}: ENOENT`,
    );
    expect(parseConfig({ remotes: { tls: { addr: "https://h:1", ca: pem } } }, "c.yml").remotes.tls?.ca).toBe(
      pem,
    );
  });

  it("rejects a malformed --remote URL as a usage error", () => {
    expect(() => resolveConnection({ remote: "ftp://x" }, config, {})).toThrow(
      "Invalid --remote: unsupported scheme",
    );
  });
});
