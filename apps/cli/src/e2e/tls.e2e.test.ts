import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExitCode } from "../exit-codes.js";
import { BERTHD, berth, type RunningBerthd, runProcess, startBerthd } from "../testing/berth.fixture.js";

/**
 * `--remote https://...` against berthd serving TLS with a self-signed
 * certificate: refused without `--ca`, accepted with it (flag or remote entry).
 * The certificate comes from the openssl CLI; without it the test says why it is skipped.
 */
function hasOpenssl(): boolean {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const openssl = hasOpenssl();
if (!openssl)
  console.warn("TLS test skipped: the openssl CLI is not installed (needed to make a test certificate)");

let server: RunningBerthd;
let token: string;

beforeAll(async () => {
  if (!openssl) return;
  server = await startBerthd((dir) => {
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"]
        .concat(["-addext", "subjectAltName=IP:127.0.0.1"])
        .concat(["-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")]),
      { stdio: "ignore" },
    );
    return ["--tls-cert", join(dir, "cert.pem"), "--tls-key", join(dir, "key.pem")];
  });
  const created = await runProcess(
    process.execPath,
    [BERTHD, "token", "create", "ops", "--admin", "--json", "--db", server.db],
    {
      PATH: process.env.PATH ?? "",
    },
  );
  token = (JSON.parse(created.stdout) as { token: string }).token;
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe.skipIf(!openssl)("https remotes", { timeout: 120_000 }, () => {
  it("needs the server's certificate, given by --ca or stored with the remote", async () => {
    // berthd's port speaks HTTPS beside plain HTTP: the same address over https.
    const httpsUrl = server.url.replace(/^http:/, "https:");
    expect(httpsUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const ca = join(server.dir, "cert.pem");
    const refused = await berth(server, ["--remote", httpsUrl, "--token", token, "cluster", "list"]);
    expect(refused.code).toBe(ExitCode.unreachable);
    expect(refused.stderr).toMatch(
      /^Error: Cannot reach berthd at https:\/\/127\.0\.0\.1:\d+: .*certificate/,
    );

    const accepted = await berth(server, [
      "--remote",
      httpsUrl,
      "--token",
      token,
      "--ca",
      ca,
      "config",
      "show",
    ]);
    expect(accepted.stderr).toBe("");
    expect(accepted.code).toBe(0);

    expect(
      (await berth(server, ["remote", "add", "secure", httpsUrl, "--token", token, "--ca", ca])).code,
    ).toBe(0);
    const viaRemote = await berth(server, ["--remote", "secure", "list", "--format", "csv"]);
    expect(viaRemote.stderr).toBe("");
    expect(viaRemote.code).toBe(0);
  });
});
