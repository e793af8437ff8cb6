/**
 * The whole allocator as one function: the input file's text in, the
 * answer out. Nothing throws out of it: a malformed or inconsistent input
 * is a failed request whose `info` names the problem.
 */
import type { SnapshotCluster } from "@berth/engine";
import { failure, type IallocatorAnswer } from "./answer.js";
import { clusterOf, InputError } from "./cluster-of.js";
import { describeIssue, type IallocatorInput, iallocatorInput } from "./input.js";
import {
  allocate,
  allocateSecondary,
  changeGroupOf,
  multiAllocate,
  nodeEvacuate,
  relocate,
} from "./requests.js";

function answerOf(cluster: SnapshotCluster, request: IallocatorInput["request"]): IallocatorAnswer {
  switch (request.type) {
    case "allocate":
      return allocate(cluster, request);
    case "multi-allocate":
      return multiAllocate(cluster, request);
    case "allocate-secondary":
      return allocateSecondary(cluster, request);
    case "relocate":
      return relocate(cluster, request);
    case "node-evacuate":
      return nodeEvacuate(cluster, request);
    case "change-group":
      return changeGroupOf(cluster, request);
  }
}

export function iallocate(text: string): IallocatorAnswer {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return failure(`Invalid JSON: ${(error as Error).message}`);
  }
  const parsed = iallocatorInput.safeParse(json);
  if (!parsed.success) return failure(`Invalid request: ${describeIssue(parsed.error)}`);
  try {
    return answerOf(clusterOf(parsed.data), parsed.data.request);
  } catch (error) {
    if (error instanceof InputError) return failure(`Invalid request: ${error.message}`);
    throw error;
  }
}
