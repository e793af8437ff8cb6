/**
 * The real OpenStack Placement 8.0.0 (Debian python3-placement under
 * uWSGI, SQLite, noauth2) as the Placement kit's script starts it
 * (../shared/placement-gabbits/reference/placement-ref.sh), for measuring
 * side by side with berthd in the same run. Absent when the script or the
 * Debian packages are not there: the bench then says so and measures
 * berthd alone.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../server/berthd.js";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const REFERENCE_SCRIPT = join(
  repoRoot,
  "..",
  "shared",
  "placement-gabbits",
  "reference",
  "placement-ref.sh",
);
const NEEDS = ["/usr/bin/placement-api", "/usr/bin/placement-manage", "/usr/bin/uwsgi", "/usr/bin/curl"];

/** Why the reference cannot run here, or undefined when it can. */
export function referenceMissing(): string | undefined {
  if (!existsSync(REFERENCE_SCRIPT)) return `${REFERENCE_SCRIPT} is missing`;
  const absent = NEEDS.filter((path) => !existsSync(path));
  if (absent.length > 0)
    return `${absent.join(", ")} not installed (apt-get install python3-placement uwsgi-core uwsgi-plugin-python3 curl)`;
  return undefined;
}

export interface ReferencePlacement {
  url: string;
  stop(): void;
}

/** Starts the real Placement on a fresh database in `dir` (its uWSGI master daemonizes; `stop` kills it by pid file). */
export async function startReference(dir: string): Promise<ReferencePlacement> {
  const port = await freePort();
  execFileSync("bash", [REFERENCE_SCRIPT, "start", dir, String(port)], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => {
      execFileSync("bash", [REFERENCE_SCRIPT, "stop", dir], { stdio: ["ignore", "ignore", "inherit"] });
    },
  };
}
