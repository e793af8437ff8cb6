import { describe, expect, it } from "vitest";
import { capacityFilter } from "../candidates/filters/capacity.js";
import { inventory } from "../testing/fixtures.js";
import { memberRecord, memberState, placementRequest, TIME } from "../testing/stack.fixture.js";
import { instanceResourcesOn, memberMemory, resourcesOn } from "./member-demand.js";

const GiB = 1024 ** 3;
const shareOf = (percent: number) => placementRequest({}, { config: { "limits.memory": `${percent}%` } });

describe("what a request asks of one member", () => {
  it("a share of the member's memory is sized against what the member reports", () => {
    const request = shareOf(50);
    expect(request.memoryShare).toEqual({ percent: 50, requested: true });
    expect(request.resources).toEqual({});
    const reported = memberRecord("r", { resources: { memory: { total: 16 * GiB } } });
    expect(memberMemory(reported)).toBe(16 * GiB);
    expect(resourcesOn(request, reported)).toEqual({ MEMORY_MB: 8192 });
    // Without a report, the member's MEMORY_MB inventory (64 GiB in the fixture) is its memory.
    expect(resourcesOn(request, memberRecord("i"))).toEqual({ MEMORY_MB: 32768 });
  });

  it("members of one size share one object; a size is the request's own object everywhere", () => {
    const request = shareOf(25);
    expect(resourcesOn(request, memberRecord("a"))).toBe(resourcesOn(request, memberRecord("b")));
    const sized = placementRequest();
    expect(resourcesOn(sized, memberRecord("a"))).toBe(sized.resources);
  });

  it("a member without memory is asked for at least 1 MiB, so it lacks MEMORY_MB", () => {
    const request = shareOf(50);
    const bare = memberState("bare", { inventories: { VCPU: inventory(4) } });
    expect(memberMemory(bare.record)).toBeUndefined();
    const check = capacityFilter.bind(request);
    expect(check.admits(bare, TIME)).toBe(false);
    expect(check.reject(bare, TIME)?.code).toBe("lack:MEMORY_MB");
  });

  it("the capacity filter judges each member on its own share", () => {
    const request = shareOf(50);
    const check = capacityFilter.bind(request);
    // Reports 32 GiB, offers instances 8 GiB: half of 32 GiB does not fit.
    const capped = memberState("capped", {
      resources: { memory: { total: 32 * GiB } },
      inventories: { MEMORY_MB: inventory(8192) },
    });
    const roomy = memberState("roomy", { resources: { memory: { total: 8 * GiB } } });
    expect(check.admits(capped, TIME)).toBe(false);
    expect(check.reject(capped, TIME)?.code).toBe("capacity:MEMORY_MB");
    expect(check.admits(roomy, TIME)).toBe(true);
    // The verdict is remembered until the member's consumption moves.
    expect(check.admits(roomy, TIME)).toBe(true);
    roomy.addPending("MEMORY_MB", 62000);
    expect(check.admits(roomy, TIME)).toBe(false);
  });

  it("get_instance_resources() on a member resolves the share there", () => {
    const request = placementRequest({}, { config: { "limits.memory": "10%", "limits.cpu": "2" } });
    const member = memberRecord("m", { resources: { memory: { total: 10_000 * 1024 * 1024 } } });
    expect(instanceResourcesOn(request, member)).toEqual({
      cpu_cores: 2,
      memory_size: Math.floor((10_000 * 1024 * 1024) / 100) * 10,
      root_disk_size: 0,
      resource_classes: { MEMORY_MB: 1000, VCPU: 2 },
    });
    const sized = placementRequest();
    expect(instanceResourcesOn(sized, member)).toBe(sized.instanceResources);
  });
});
