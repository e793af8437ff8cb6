/**
 * Child-process side of `prepareClusterFile`: generates the cluster into FILE,
 * issues an admin token, prints `{"token": ...}` and exits, so every
 * connection it opened is closed by the exit itself.
 *   node dist/cluster/prepare-main.js FILE MEMBERS INSTANCES
 */
import { createToken } from "../server/berthd.js";
import { generateSqliteCluster } from "./seed-sqlite.js";

const [file, members, instances] = process.argv.slice(2);
if (file === undefined || members === undefined || instances === undefined) {
  process.stderr.write("usage: prepare-main.js FILE MEMBERS INSTANCES\n");
  process.exit(2);
}
await generateSqliteCluster(file, { members: Number(members), instances: Number(instances) });
process.stdout.write(`${JSON.stringify({ token: await createToken(file, "bench") })}\n`);
