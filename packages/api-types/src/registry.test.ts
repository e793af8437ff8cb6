import { describe, expect, it } from "vitest";
import { z } from "zod";
import { apiJsonSchemas, apiSchemas, createApiSchemaRegistry } from "./registry.js";

describe("schema registry and JSON Schema export", () => {
  it("registers every named schema", () => {
    const registry = createApiSchemaRegistry();
    for (const [name, schema] of Object.entries(apiSchemas)) {
      expect(registry.has(schema), name).toBe(true);
    }
  });

  it("exports a JSON Schema per distinct schema, with refs into components", () => {
    const schemas = apiJsonSchemas();
    const distinct = new Set(Object.values(apiSchemas)).size;
    expect(Object.keys(schemas)).toHaveLength(distinct);
    const post = schemas.InstancesPost;
    if (post === undefined) throw new Error("InstancesPost missing");
    expect(post.additionalProperties).toBe(false);
    expect(post.$id).toBeUndefined();
    expect((post.properties as Record<string, unknown>).source).toEqual({
      $ref: "#/components/schemas/InstanceSource",
    });
  });

  it("shows inventory defaults as optional input fields", () => {
    const inventory = apiJsonSchemas().Inventory;
    expect(inventory?.required).toEqual(["total"]);
  });

  it("lists the documented server config keys", () => {
    const config = apiJsonSchemas().ServerConfig;
    const properties = config?.properties as Record<string, { description?: string }>;
    expect(Object.keys(properties)).toContain("instances.placement.scriptlet.max_steps");
    expect(properties["cluster.offline_threshold"]?.description).toMatch(/heartbeat/);
  });

  it("also converts as responses are written (output view)", () => {
    const document = z.toJSONSchema(createApiSchemaRegistry(), { io: "output", unrepresentable: "any" });
    const inventory = document.schemas.Inventory as { required?: string[] };
    expect(inventory.required).toEqual([
      "total",
      "reserved",
      "min_unit",
      "max_unit",
      "step_size",
      "allocation_ratio",
    ]);
  });
});
