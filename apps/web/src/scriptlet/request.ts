/**
 * The request a dry run places: described in the workbench's form, or
 * taken from an instance already placed ("what would my scriptlet have
 * done with web1?").
 */
import type { ApiInput, Instance } from "@berth/api-types";

export interface RequestForm {
  name: string;
  project: string;
  flavor: string;
  type: "container" | "virtual-machine";
  /** `limits.cpu`, `limits.memory` and any other config, as `key=value` lines. */
  config: string;
  /** `member`, `@group` or "". */
  target: string;
}

export const EMPTY_REQUEST: RequestForm = {
  name: "test1",
  project: "default",
  flavor: "",
  type: "container",
  config: "",
  target: "",
};

/** `key=value` lines; blank lines and `#` comments skipped. Throws on a line without `=`. */
export function parseConfig(text: string): Record<string, string> {
  const config: Record<string, string> = {};
  for (const [index, raw] of text.split("\n").entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const at = line.indexOf("=");
    if (at <= 0) throw new Error(`Config line ${index + 1} needs key=value: "${line}"`);
    config[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return config;
}

export function bodyOf(form: RequestForm): ApiInput<"InstancesPost"> {
  const config = parseConfig(form.config);
  return {
    ...(form.name.trim() !== "" ? { name: form.name.trim() } : {}),
    type: form.type,
    ...(form.flavor !== "" ? { flavor: form.flavor } : {}),
    ...(Object.keys(config).length > 0 ? { config } : {}),
  };
}

/** The form for re-placing `instance` as a new request (its own config, flavor and type). */
export function formFromInstance(instance: Instance): RequestForm {
  return {
    name: instance.name === "" ? "" : instance.name,
    project: instance.project,
    flavor: instance.flavor,
    type: instance.type,
    config: Object.entries(instance.config)
      .map(([key, value]) => `${key}=${value}`)
      .join("\n"),
    target: "",
  };
}
