import { createRequire } from "node:module";

type YamlModule = typeof import("yaml");

const require = createRequire(import.meta.url);
let loaded: YamlModule | undefined;

/**
 * The `yaml` package, loaded on first use: it is the costliest module the CLI
 * imports (~0.15 s of CPU), and most runs (tables, csv, json, no config file)
 * never need it.
 */
function yaml(): YamlModule {
  loaded ??= require("yaml") as YamlModule;
  return loaded;
}

export function parseYaml(text: string): unknown {
  return yaml().parse(text);
}

export function toYaml(value: unknown): string {
  return yaml().stringify(value);
}
