/**
 * The whole allocator as one function: the input file's text in, the
 * answer out. Nothing throws out of it: a malformed or inconsistent input
 * is a failed request whose `info` names the problem.
 *
 * The cluster is loaded twice over: as the snapshot cluster the engine's
 * Ganeti search ranks on, and into the engine's in-memory Store
 * (`SnapshotLedger`), where every placement and move the search decides is
 * committed as a claim. The claim rules (memory, disk on both members of a
 * DRBD instance, N+1 on its secondary) are the last word: an answer they
 * refuse is a failed request, never a placement Berth did not check.
 */
import { EngineError, type SnapshotCluster, SnapshotLedger } from "@berth/engine/ganeti";
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

/**
 * Input size (characters) from which zod's compiled fast path pays for
 * compiling it: Ganeti's single-instance inputs (10-20 KB) parse in about
 * a third of the time without it, 1,000 nodes x 10,000 instances (3 MB)
 * about a quarter faster with it; measured crossover 100-300 KB.
 */
const JIT_PAYS_FROM = 256 * 1024;

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

export async function iallocate(text: string): Promise<IallocatorAnswer> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return failure(`Invalid JSON: ${(error as Error).message}`);
  }
  const parsed = iallocatorInput.safeParse(json, { jitless: text.length < JIT_PAYS_FROM });
  if (!parsed.success) return failure(`Invalid request: ${describeIssue(parsed.error)}`);
  let cluster: SnapshotCluster;
  let ledger: SnapshotLedger;
  try {
    cluster = clusterOf(parsed.data);
    ledger = await SnapshotLedger.open(cluster);
  } catch (error) {
    if (error instanceof InputError || error instanceof EngineError)
      return failure(`Invalid request: ${error.message}`);
    throw error;
  }
  let answer: IallocatorAnswer;
  try {
    answer = answerOf(cluster, parsed.data.request);
  } catch (error) {
    if (error instanceof InputError) return failure(`Invalid request: ${error.message}`);
    throw error;
  }
  if (!answer.success) return answer;
  try {
    await ledger.commit();
  } catch (error) {
    if (error instanceof EngineError)
      return failure(`Request failed: the claim was refused: ${error.message}`);
    throw error;
  }
  return answer;
}
