import { describe, expect, it } from "vitest";
import { type Schema, validateSchema } from "./json-schema.js";
import { allocationSchema } from "./routes/allocations.js";

const PROVIDER = "c0000000-0000-4000-8000-000000000001";
const claim = (overrides: Record<string, unknown>) => ({
  allocations: { [PROVIDER]: { resources: { VCPU: 1 } } },
  project_id: "p",
  user_id: "u",
  consumer_generation: null,
  consumer_type: "INSTANCE",
  ...overrides,
});

/** The 400's text for `value`, or "valid". */
function refusal(value: unknown, schema: Schema): string {
  try {
    validateSchema(value, schema);
    return "valid";
  } catch (error) {
    return (error as Error).message;
  }
}

describe("validateSchema", () => {
  const latest = allocationSchema({ major: 1, minor: 39 }, false);

  it("accepts a valid claim body", () => {
    expect(refusal(claim({}), latest)).toBe("valid");
  });

  it("locates a failure deep inside patterned properties, as Python's jsonschema does", () => {
    expect(refusal(claim({ allocations: { [PROVIDER]: { resources: { VCPU: 0 } } } }), latest)).toBe(
      "JSON does not validate: 0 is less than the minimum of 1\n\n" +
        "Failed validating 'minimum' in schema['properties']['allocations']['patternProperties']['^[0-9a-fA-F-]{36}$']['properties']['resources']['patternProperties']['^[0-9A-Z_]+$']\n\n" +
        `On instance['allocations']['${PROVIDER}']['resources']['VCPU']`,
    );
  });

  it("names keys no pattern admits at the object that holds them", () => {
    expect(refusal(claim({ allocations: { [PROVIDER]: { resources: { vcpu: 1 } } } }), latest)).toBe(
      "JSON does not validate: 'vcpu' does not match any of the regexes: '^[0-9A-Z_]+$'\n\n" +
        "Failed validating 'additionalProperties' in schema['properties']['allocations']['patternProperties']['^[0-9a-fA-F-]{36}$']['properties']['resources']\n\n" +
        `On instance['allocations']['${PROVIDER}']['resources']`,
    );
  });

  it("locates anyOf and string-length failures at their property", () => {
    expect(refusal(claim({ consumer_generation: "x" }), latest)).toBe(
      "JSON does not validate: 'x' is not valid under any of the given schemas\n\n" +
        "Failed validating 'anyOf' in schema['properties']['consumer_generation']\n\nOn instance['consumer_generation']",
    );
    expect(refusal(claim({ project_id: "" }), latest)).toBe(
      "JSON does not validate: '' is too short\n\n" +
        "Failed validating 'minLength' in schema['properties']['project_id']\n\nOn instance['project_id']",
    );
  });

  it("locates a failure inside an array item by its index", () => {
    const listForm = allocationSchema({ major: 1, minor: 0 }, false);
    const body = { allocations: [{ resource_provider: { uuid: "x" }, resources: { VCPU: 1 } }] };
    expect(refusal(body, listForm)).toBe(
      "JSON does not validate: 'x' is not a 'uuid'\n\n" +
        "Failed validating 'format' in schema['properties']['allocations']['items']['properties']['resource_provider']['properties']['uuid']\n\n" +
        "On instance['allocations'][0]['resource_provider']['uuid']",
    );
  });
});
