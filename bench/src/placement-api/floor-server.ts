/**
 * The HTTP floor of the Placement bench: a node:http server that does the
 * least any Placement service must do per call (read the request, parse its
 * JSON body, answer) and nothing else. A GET answers the bytes berthd gave
 * for the same request (read from files once), a PUT or POST answers 204.
 * Measured with the same client, requests and rounds as the services, it
 * shows the fastest answer this machine's loopback and Node's HTTP stack
 * allow, so a ratio against the real Placement can be read against the most
 * any server could reach here.
 *   node floor-server.js LIMIT1_ANSWER_FILE FULL_ANSWER_FILE   (prints its port)
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const [limitOneFile, allFile] = process.argv.slice(2);
if (limitOneFile === undefined || allFile === undefined) {
  process.stderr.write("usage: floor-server.js LIMIT1_ANSWER_FILE FULL_ANSWER_FILE\n");
  process.exit(2);
}
const limitOne = readFileSync(limitOneFile);
const all = readFileSync(allFile);

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    if (request.method === "GET") {
      const body = (request.url ?? "").includes("limit=1") ? limitOne : all;
      response.writeHead(200, { "content-type": "application/json", "content-length": body.length });
      response.end(body);
      return;
    }
    JSON.parse(Buffer.concat(chunks).toString("utf8"));
    response.writeHead(204);
    response.end();
  });
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`${typeof address === "object" && address !== null ? address.port : 0}\n`);
});
