import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InstancesPostSchema } from "./instances.js";
import { ClusterMemberSchema } from "./members.js";
import { apiSchemas } from "./registry.js";
import { clusterMember } from "./testing/examples.fixture.js";
import { parseBody } from "./validation.js";

/** Every rejection must be a sentence that names its field, never a throw or an empty message. */
function expectWellFormed(result: ReturnType<typeof parseBody>): void {
  if (result.ok) return;
  expect(result.error.kind).toBe("invalid");
  expect(result.error.message.length).toBeGreaterThan(0);
  expect(result.error.issues.length).toBeGreaterThan(0);
  for (const issue of result.error.issues) {
    if (issue.path === "") expect(issue.message.startsWith("Invalid body: ")).toBe(true);
    else expect(issue.message).toContain(`"${issue.path}"`);
  }
}

describe("parseBody on arbitrary input (property-based)", () => {
  it("never throws and always names the field, for every schema", () => {
    const schemas = Object.values(apiSchemas);
    fc.assert(
      fc.property(fc.constantFrom(...schemas), fc.jsonValue({ maxDepth: 4 }), (schema, input) => {
        expectWellFormed(parseBody(schema, input));
      }),
      { numRuns: 400 },
    );
  });

  it("rejects any extra top-level key as an unknown field", () => {
    const known = new Set(Object.keys(clusterMember));
    const extraKey = fc
      .string({ minLength: 1, maxLength: 12 })
      .filter((key) => !known.has(key) && key !== "__proto__");
    fc.assert(
      fc.property(extraKey, fc.jsonValue({ maxDepth: 2 }), (key, value) => {
        const result = parseBody(ClusterMemberSchema, { ...clusterMember, [key]: value });
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.error.issues[0]?.message).toBe(`Unknown field "${key}"`);
      }),
      { numRuns: 200 },
    );
  });

  it("accepts any string config map on a create body, keys and values verbatim", () => {
    const config = fc.dictionary(
      fc
        .string({ minLength: 1, maxLength: 20 })
        .filter((key) => key !== "placement.group" && key !== "__proto__"),
      fc.string({ maxLength: 20 }),
    );
    fc.assert(
      fc.property(config, (map) => {
        const result = parseBody(InstancesPostSchema, { name: "c1", config: map });
        expect(result.ok && result.value.config).toEqual(map);
      }),
      { numRuns: 200 },
    );
  });
});
