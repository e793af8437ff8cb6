/**
 * `source.type=copy` (what `lxc copy` sends inside a cluster): the copy is
 * placed like a new instance, as LXD places a copy without `--target`
 * (the placement scriptlet runs for it). The instance it copies must exist
 * (a snapshot's `NAME/SNAP` names its instance); the copy runs on the
 * source's architecture unless the body names one.
 */
import { ArchitectureSchema, type InstancesPost } from "@berth/api-types";
import { invalid, notFound } from "../base/errors.js";
import type { ExpandContext } from "./context.js";

/** The body itself, synchronously, unless it copies an instance (no promise hop for a plain create). */
export function withCopySource(
  context: ExpandContext,
  body: InstancesPost,
  projectName: string,
): InstancesPost | Promise<InstancesPost> {
  return body.source?.type === "copy" ? copiedBody(context, body, projectName) : body;
}

async function copiedBody(
  context: ExpandContext,
  body: InstancesPost,
  projectName: string,
): Promise<InstancesPost> {
  const source = body.source!;
  if (source.source === undefined || source.source === "") throw invalid("Must specify a source instance");
  const instance = source.source.split("/")[0] as string;
  const project = source.project !== undefined && source.project !== "" ? source.project : projectName;
  const record = await context.store.getInstance(project, instance);
  if (record === undefined) throw notFound(`Instance "${instance}" not found in project "${project}"`);
  if (body.architecture !== undefined && body.architecture !== "") return body;
  const architecture = ArchitectureSchema.safeParse(record.architecture);
  return architecture.success ? { ...body, architecture: architecture.data } : body;
}
