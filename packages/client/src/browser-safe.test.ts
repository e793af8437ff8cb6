import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));

/** Every module `entry` reaches through relative imports, with what each imports from outside. */
function importGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const visit = (file: string) => {
    if (graph.has(file)) return;
    const external: string[] = [];
    graph.set(file, external);
    const source = readFileSync(file, "utf8");
    for (const match of source.matchAll(/(?:import|export)\s[^"']*?from\s+["']([^"']+)["']/g)) {
      const specifier = match[1]!;
      if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
      else external.push(specifier);
    }
  };
  visit(entry);
  return graph;
}

describe("the core entry runs in a browser", () => {
  it("reaches no Node module and nothing of ./node", () => {
    const graph = importGraph(join(here, "index.ts"));
    expect(graph.size).toBeGreaterThan(5);
    for (const [file, external] of graph) {
      expect(file, "the core must not import the Node transports").not.toContain(`${join(here, "node")}/`);
      for (const specifier of external) {
        expect(specifier, `${file} imports ${specifier}`).toMatch(/^@berth\/api-types$/);
      }
    }
  });

  it("the Node entry adds the Node transports on top of the core", () => {
    const graph = importGraph(join(here, "node", "index.ts"));
    const external = new Set([...graph.values()].flat());
    expect([...external].sort()).toEqual([
      "@berth/api-types",
      "node:fs",
      "node:http",
      "node:https",
      "node:os",
      "node:path",
      // watchEvents: berthd's /1.0/events websocket over the Unix socket or TLS (Node 20 has no client for either).
      "ws",
    ]);
  });
});
