/**
 * Starts the bench's HTTP floor (floor-server.ts) in its own process, as
 * berthd and the real Placement run in theirs, answering GETs with the
 * answers berthd gave (`limitOne`, `all`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export interface HttpFloor {
  url: string;
  stop(): void;
}

const SERVER = join(dirname(fileURLToPath(import.meta.url)), "floor-server.js");

export async function startFloor(dir: string, limitOne: string, all: string): Promise<HttpFloor> {
  const limitOneFile = join(dir, "floor-limit1.json");
  const allFile = join(dir, "floor-all.json");
  writeFileSync(limitOneFile, limitOne);
  writeFileSync(allFile, all);
  const child = spawn(process.execPath, [SERVER, limitOneFile, allFile], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await portOf(child);
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

function portOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split("\n")[0];
      if (out.includes("\n") && line !== undefined) resolve(Number(line));
    });
    child.once("exit", (code) =>
      reject(new Error(`the HTTP floor server exited (${code}) before listening`)),
    );
    child.once("error", reject);
  });
}
