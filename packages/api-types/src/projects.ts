import { z } from "zod";
import { GroupNameSchema, ProjectNameSchema } from "./names.js";
import { ConfigMapSchema, DescriptionSchema } from "./primitives.js";

/**
 * Count limits: a non-negative integer written as a string, as LXD stores it. These and
 * the size limits are the one list of the project limits Berth enforces; the engine maps
 * each to what it counts (`PROJECT_LIMIT_KEYS`).
 */
export const PROJECT_COUNT_LIMIT_KEYS = [
  "limits.instances",
  "limits.containers",
  "limits.virtual-machines",
  "limits.cpu",
] as const;
/** Size limits: an LXD size (`10GiB`, `512MB`, bare bytes); its value is parsed by @berth/resources. */
export const PROJECT_SIZE_LIMIT_KEYS = ["limits.memory", "limits.disk"] as const;
const COUNT_LIMIT_KEYS: readonly string[] = PROJECT_COUNT_LIMIT_KEYS;
const SIZE_LIMIT_KEYS: readonly string[] = PROJECT_SIZE_LIMIT_KEYS;
const BOOLEAN_KEYS = ["restricted"];
/** Prefixes of LXD project keys Berth stores verbatim, so `lxc project show` output round-trips. */
const PASSTHROUGH_PREFIXES = ["user.", "limits.", "restricted.", "features.", "images.", "backups."];

const SIZE_PATTERN = /^\d+(\.\d+)?\s*(B|[kMGTPE]B|[KMGTPE]iB)?$/;

/**
 * Project config. The keys Berth enforces are shape-checked here (`limits.instances`,
 * `limits.containers`, `limits.virtual-machines`, `limits.cpu`, `limits.memory`,
 * `limits.disk`, `restricted`, `restricted.cluster.groups`); other LXD project keys are
 * stored as given; keys outside LXD's namespaces are refused. An empty value unsets a key.
 */
export const ProjectConfigSchema = ConfigMapSchema.superRefine((config, ctx) => {
  for (const [key, value] of Object.entries(config)) {
    const problem = (message: string) => ctx.addIssue({ code: "custom", path: [key], message, input: value });
    const known = PASSTHROUGH_PREFIXES.some((prefix) => key.startsWith(prefix) && key.length > prefix.length);
    // "" unsets a key (LXD's PATCH semantics), so it is valid for every key Berth stores.
    if (value === "" && (known || BOOLEAN_KEYS.includes(key))) continue;
    if (COUNT_LIMIT_KEYS.includes(key)) {
      if (!/^\d+$/.test(value)) problem("must be a non-negative integer");
    } else if (SIZE_LIMIT_KEYS.includes(key)) {
      if (!SIZE_PATTERN.test(value)) problem('must be a size such as "10GiB", "512MB" or a number of bytes');
    } else if (BOOLEAN_KEYS.includes(key)) {
      if (value !== "true" && value !== "false") problem('must be "true" or "false"');
    } else if (key === "restricted.cluster.groups") {
      const groups = value.split(",").map((group) => group.trim());
      const bad = value.trim() === "" ? [] : groups.filter((g) => !GroupNameSchema.safeParse(g).success);
      if (bad.length > 0)
        problem(`must be a comma-separated list of group names (bad: ${JSON.stringify(bad[0])})`);
    } else if (!known) {
      problem(`unknown project config key (allowed prefixes: ${PASSTHROUGH_PREFIXES.join(", ")})`);
    }
  }
});

export const ProjectPutSchema = z.strictObject({
  description: DescriptionSchema,
  config: ProjectConfigSchema,
});
export type ProjectPut = z.infer<typeof ProjectPutSchema>;

export const ProjectPatchSchema = ProjectPutSchema.partial();
export type ProjectPatch = z.infer<typeof ProjectPatchSchema>;

export const ProjectsPostSchema = z.strictObject({
  name: ProjectNameSchema,
  description: DescriptionSchema.optional(),
  config: ProjectConfigSchema.optional(),
});
export type ProjectsPost = z.infer<typeof ProjectsPostSchema>;

/** `POST /1.0/projects/NAME`: rename. */
export const ProjectPostSchema = z.strictObject({ name: ProjectNameSchema });
export type ProjectPost = z.infer<typeof ProjectPostSchema>;

/** A project (LXD `api.Project`); also what a scriptlet's `get_project()` returns. */
export const ProjectSchema = z.strictObject({
  name: ProjectNameSchema,
  ...ProjectPutSchema.shape,
  used_by: z.array(z.string()),
});
export type Project = z.infer<typeof ProjectSchema>;
