import { describe, expect, it } from "vitest";
import { fillPath, withQuery } from "./route-table.js";
import { routes } from "./routes.generated.js";

describe("route table", () => {
  it("fills path parameters, URI-encoded, and refuses a missing one", () => {
    expect(fillPath(routes.getInventory.path, { name: "node 1", class: "CUSTOM_FPGA" })).toBe(
      "/1.0/cluster/members/node%201/inventories/CUSTOM_FPGA",
    );
    expect(fillPath(routes.getImageAlias.path, { alias: "ubuntu/24.04" })).toBe(
      "/1.0/images/aliases/ubuntu%2F24.04",
    );
    expect(() => fillPath(routes.getInstance.path, {})).toThrow(
      'Missing path parameter "name" for /1.0/instances/:name',
    );
  });

  it("adds query parameters, leaving out undefined ones", () => {
    expect(withQuery("/1.0/instances", { project: "team", target: undefined, dry_run: true })).toBe(
      "/1.0/instances?project=team&dry_run=true",
    );
    expect(withQuery("/1.0/instances", { project: undefined })).toBe("/1.0/instances");
  });

  it("names every operation once, with the query parameters the server honours", () => {
    expect(routes.createInstance).toEqual({
      method: "POST",
      path: "/1.0/instances",
      query: ["project", "target", "dry_run"],
      body: "InstancesPost",
    });
    expect(routes.getMetrics).toEqual({ method: "GET", path: "/1.0/metrics", query: [], body: null });
  });
});
