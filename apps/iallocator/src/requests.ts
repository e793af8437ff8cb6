/**
 * One handler per request type: the request's fields in, the engine's
 * snapshot placement called, Ganeti's answer shape out.
 */
import {
  changeGroup,
  chooseSecondary,
  evacuateInstance,
  membersNeeded,
  type PlacementLimits,
  placeBatch,
  placeInstance,
  rejectionText,
  relocateInstance,
  type SnapshotCluster,
  type SnapshotMoveOutcome,
} from "@berth/engine/ganeti";
import { failure, type IallocatorAnswer } from "./answer.js";
import { InputError, specOf } from "./cluster-of.js";
import { failed, scoreText, searchText, solutionText, successful } from "./info.js";
import type { AllocateRequest, IallocatorInput } from "./input.js";
import { opcodeOf } from "./opcodes.js";

type Request = IallocatorInput["request"];
type Of<T extends Request["type"]> = Extract<Request, { type: T }>;

function checkedSpec(request: AllocateRequest) {
  const spec = specOf(request.name, request);
  const needed = membersNeeded(spec.template);
  if (request.required_nodes !== needed)
    throw new InputError(
      `instance ${request.name}: required_nodes ${request.required_nodes} does not match disk template ${spec.template} (${needed} needed)`,
    );
  return spec;
}

function limitsOf(request: AllocateRequest): PlacementLimits {
  const restrict = request["restrict-to-nodes"];
  return {
    ...(request.group_name == null ? {} : { group: request.group_name }),
    ...(restrict == null ? {} : { restrictTo: new Set(restrict) }),
  };
}

export function allocate(cluster: SnapshotCluster, request: Of<"allocate">): IallocatorAnswer {
  const search = placeInstance(cluster, checkedSpec(request), limitsOf(request));
  if (search.chosen === undefined) return failure(failed(searchText(search)));
  return { success: true, info: successful(searchText(search)), result: search.chosen.choice.nodes };
}

export function multiAllocate(cluster: SnapshotCluster, request: Of<"multi-allocate">): IallocatorAnswer {
  const names = new Set<string>();
  for (const instance of request.instances) {
    if (names.has(instance.name)) throw new InputError(`instance ${instance.name} is requested twice`);
    names.add(instance.name);
  }
  const specs = request.instances.map((instance) => checkedSpec(instance));
  const outcome = placeBatch(cluster, specs, { allOrNothing: request.all_or_nothing });
  if (outcome.blockedBy !== undefined) return failure(failed(searchText(outcome.blockedBy)));
  const allocated: [string, readonly string[]][] = [];
  const unplaced: string[] = [];
  for (const search of outcome.searches) {
    if (search.chosen === undefined) unplaced.push(search.spec.name);
    else allocated.push([search.spec.name, search.chosen.choice.nodes]);
  }
  return {
    success: true,
    info: successful(
      `${unplaced.length} instances failed to allocate and ${allocated.length} were allocated successfully`,
    ),
    result: [allocated, unplaced],
  };
}

function existing(cluster: SnapshotCluster, name: string) {
  const placed = cluster.instances.get(name);
  if (placed === undefined) throw new InputError(`instance ${name} not found in the cluster`);
  return placed;
}

export function allocateSecondary(
  cluster: SnapshotCluster,
  request: Of<"allocate-secondary">,
): IallocatorAnswer {
  const placed = existing(cluster, request.name);
  if (placed.nodes.length !== 1)
    throw new InputError(`instance ${request.name} already has ${placed.nodes.length} nodes`);
  const choice = chooseSecondary(cluster, placed, new Set());
  if (choice.node === undefined) return failure(failed(`Can't find any good node: ${rejectionText(choice)}`));
  const failures = new Map<"FailMem", number>();
  for (const { why } of choice.rejected)
    failures.set(why as "FailMem", (failures.get(why as "FailMem") ?? 0) + 1);
  const text = `score: ${scoreText(choice.score ?? 0)}, ${solutionText(choice.successes, failures, [placed.nodes[0]!, choice.node])}`;
  return { success: true, info: successful(text), result: choice.node };
}

export function relocate(cluster: SnapshotCluster, request: Of<"relocate">): IallocatorAnswer {
  const placed = existing(cluster, request.name);
  const from = request.relocate_from;
  if (from.length !== 1 || !placed.nodes.includes(from[0]!))
    throw new InputError(
      `relocate_from ${JSON.stringify(from)} must name one node of instance ${request.name}`,
    );
  const before = [...placed.nodes];
  const outcome = relocateInstance(cluster, request.name, from[0]!);
  if (!outcome.moved) return failure(failed(`Can't find any good node: ${outcome.reason}`));
  return {
    success: true,
    info: successful("success"),
    result: outcome.nodes.filter((n) => !before.includes(n)),
  };
}

type MoveOf = (cluster: SnapshotCluster, name: string) => SnapshotMoveOutcome;

function moveAll(cluster: SnapshotCluster, names: readonly string[], move: MoveOf): IallocatorAnswer {
  for (const name of names) existing(cluster, name);
  const moved: [string, string, readonly string[]][] = [];
  const unmoved: [string, string][] = [];
  const jobs: Record<string, unknown>[][] = [];
  for (const name of names) {
    const outcome = move(cluster, name);
    if (outcome.moved) {
      moved.push([name, outcome.group, outcome.nodes]);
      jobs.push(outcome.steps.map((step) => opcodeOf(name, step)));
    } else {
      unmoved.push([name, outcome.attempts === undefined ? outcome.reason : searchReason(name, outcome)]);
    }
  }
  return {
    success: true,
    info: successful(
      `${unmoved.length} instances failed to move and ${moved.length} were moved successfully`,
    ),
    result: [moved, unmoved, jobs],
  };
}

function searchReason(name: string, outcome: Extract<SnapshotMoveOutcome, { moved: false }>): string {
  const attempts = outcome.attempts ?? [];
  const spec = {
    name,
    memory: 0,
    vcpus: 0,
    disks: [],
    spindleUse: 0,
    template: "",
    tags: [],
    networks: [],
    nicCount: 0,
  };
  const text = searchText({ spec, attempts });
  return text === "" ? "No group to move to" : text;
}

export function nodeEvacuate(cluster: SnapshotCluster, request: Of<"node-evacuate">): IallocatorAnswer {
  return moveAll(cluster, request.instances, (c, name) => evacuateInstance(c, name, request.evac_mode));
}

export function changeGroupOf(cluster: SnapshotCluster, request: Of<"change-group">): IallocatorAnswer {
  const input = request.target_groups;
  for (const group of input)
    if (!cluster.groups.has(group))
      throw new InputError(`target group ${group} is not a node group of the cluster`);
  return moveAll(cluster, request.instances, (c, name) => changeGroup(c, name, input));
}
