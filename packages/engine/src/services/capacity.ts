/**
 * `engine.capacity`: capacity planning, Ganeti `hspace`'s question asked of
 * Berth's own placement rules. How many more instances of this create body
 * fit now, one after another, on which members, and what runs out first
 * (capacity-count.ts); the largest multiple of the shape one member still
 * takes, and, given flavors, how many of each fit and the largest that
 * still fits (hspace's tiered allocation). Nothing is claimed or stored.
 *
 * With a placement scriptlet configured, the count assumes the default
 * order (fewest instances, a placement group's policy): the scriptlet is
 * not run, and the answer says so (`scriptletIgnored`). A scriptlet may
 * reject or steer any create, so no count could promise what it decides
 * without running it once per unit.
 */
import type { InstancesPost } from "@berth/api-types";
import { CatalogCache } from "../expand/catalog-cache.js";
import { expandCreate } from "../expand/create.js";
import type { PlacementRequest } from "../expand/request.js";
import type { EngineRuntime } from "../runtime/runtime.js";
import { type CapacityCount, countCapacity, demandOn, type Measured, measure } from "./capacity-count.js";
import { largestMultipleOn } from "./capacity-member.js";
import { compareSizeDesc, sizeKey } from "./placer.js";

/** What `CapacityPlanner.answer` counts for, beyond the create body. */
export interface CapacityOptions {
  /** The project the creates would be made in (its limits and restrictions apply); absent: `default`. */
  project?: string;
  /** `member` or `@group`, as for a create. */
  target?: string;
  /** Flavors to try in place of the body's sizing (tiered: how many of each, and the largest that fits). */
  flavors?: readonly string[];
}

/** The largest multiple of the shape that one member still takes as a single instance. */
export interface LargestMultiple {
  /** How many times the shape's resources one member still takes at once (0 when not even one fits). */
  multiple: number;
  /** The first member (in the stack's order) taking it; null when not even one fits. */
  member: string | null;
  /** What that instance would ask for, per class. */
  resources: Record<string, number>;
}

/** How many instances of one flavor fit, and what stops the count. */
export interface FlavorCapacity {
  /** The flavor's name. */
  flavor: string;
  /** How many more instances of it fit now, one after another. */
  instances: number;
  /** What stops the count, as in `CapacityCount.limitedBy`. */
  limitedBy: string;
}

/** `engine.capacity`'s answer: the count of the body's shape, the largest multiple, and per flavor. */
export interface CapacityAnswer extends CapacityCount {
  /** The largest multiple of the shape one member still takes as a single instance. */
  largest: LargestMultiple;
  /** Per flavor asked for, in the order given. */
  flavors: FlavorCapacity[];
  /** The largest (memory, then CPUs, then disk) of the flavors asked for of which one more fits; null if none does. */
  largestFlavor: string | null;
  /** True when a placement scriptlet is configured and the count assumed the default order instead. */
  scriptletIgnored: boolean;
}

/** The body as a shape: names and UUIDs are the one thing creates of it do not share. */
function shapeOf(body: InstancesPost): InstancesPost {
  const { name: _name, uuid: _uuid, ...shape } = body;
  return shape;
}

/**
 * Capacity planning (`engine.capacity`): how many more creates of a body fit now (see the file
 * comment). Claims nothing.
 */
export class CapacityPlanner {
  constructor(private readonly runtime: EngineRuntime) {}

  /** How many more of `body` fit now (see the file comment). */
  answer(body: InstancesPost, options: CapacityOptions = {}): Promise<CapacityAnswer> {
    return this.runtime.againIfStale(() => this.answerOnce(body, options));
  }

  private async answerOnce(body: InstancesPost, options: CapacityOptions): Promise<CapacityAnswer> {
    const runtime = this.runtime;
    await runtime.sync();
    const catalog = new CatalogCache(runtime);
    const project = options.project ?? "default";
    const expand = (shape: InstancesPost) => expandCreate(runtime, catalog, shape, project, options.target);
    const request = await expand(shapeOf(body));
    const flavorRequests: PlacementRequest[] = [];
    for (const flavor of options.flavors ?? []) {
      const { instance_type: _type, ...rest } = shapeOf(body);
      flavorRequests.push(await expand({ ...rest, flavor }));
    }
    await runtime.syncTrees();
    // From here on synchronous: nothing else plans or claims while the cluster is counted.
    const measured = measure(runtime, request);
    const count = countCapacity(runtime, request, measured);
    const flavors = flavorRequests.map((one, index) => {
      const { instances, limitedBy } = countCapacity(runtime, one);
      return { flavor: options.flavors![index]!, instances, limitedBy };
    });
    return {
      ...count,
      largest: this.largestMultiple(request, measured),
      flavors,
      largestFlavor: largestFitting(flavorRequests, flavors),
      scriptletIgnored: runtime.effective.scriptlet !== "" && request.target?.kind !== "member",
    };
  }

  /**
   * The largest k for which ONE instance k times the size fits on some
   * member the stack admits (a strict placement group's turn-downs too),
   * within the project's aggregate limits.
   */
  private largestMultiple(request: PlacementRequest, { units, room }: Measured): LargestMultiple {
    const { model, stack } = this.runtime;
    let bound = room.cap === 0 ? 0 : Number.POSITIVE_INFINITY;
    for (const limit of room.limits) {
      // Counted limits allow one instance whatever its size; aggregates bound its size.
      if (limit.instances !== null && limit.aggregate) bound = Math.min(bound, limit.instances);
    }
    const { members } = units;
    // Only a strict placement group turns fitting members down; most requests skip the walk.
    const turnedDown =
      request.target?.kind === "member" || !stack.turnsDown(model, request)
        ? new Set<string>()
        : new Set(
            stack
              .turnedDownByRankings(
                model,
                request,
                members.filter((_, index) => units.units[index]! > 0),
              )
              .map((one) => one.member),
          );
    let best: LargestMultiple = { multiple: 0, member: null, resources: {} };
    for (let index = 0; index < members.length; index++) {
      const member = members[index]!;
      const fitting = units.units[index]!;
      if (fitting <= best.multiple || turnedDown.has(member.name)) continue;
      const demand = demandOn(request, member);
      const multiple = largestMultipleOn(member, demand, fitting, bound);
      if (multiple > best.multiple) {
        const resources = Object.fromEntries(
          demand.map(([resourceClass, amount]) => [resourceClass, amount * multiple]),
        );
        best = { multiple, member: member.name, resources };
      }
    }
    return best;
  }
}

/** The largest of the flavors asked for of which at least one more fits. */
function largestFitting(
  requests: readonly PlacementRequest[],
  flavors: readonly FlavorCapacity[],
): string | null {
  let best: { key: number[]; flavor: string } | null = null;
  for (const [index, request] of requests.entries()) {
    const one = flavors[index]!;
    if (one.instances === 0) continue;
    const key = sizeKey(request);
    if (best === null || compareSizeDesc(key, best.key) < 0) best = { key, flavor: one.flavor };
  }
  return best?.flavor ?? null;
}
