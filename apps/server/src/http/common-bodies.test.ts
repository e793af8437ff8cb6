import { apiSchemas, parseBody } from "@berth/api-types";
import { describe, expect, it } from "vitest";
import { commonInstancesPost } from "./common-bodies.js";
import { withoutNullFields } from "./json-body.js";

/** What readJsonBody answers through the schema: the value, or the refusal's text. */
function throughSchema(decoded: unknown): string {
  const result = parseBody(apiSchemas.InstancesPost, withoutNullFields(decoded));
  return result.ok ? JSON.stringify(result.value) : `refused: ${result.error.message}`;
}

describe("the create body's common shape", () => {
  it("answers what the schema answers, fields in the schema's order", () => {
    for (const text of [
      '{"name":"c1","config":{"limits.cpu":"1","limits.memory":"1GiB"}}',
      '{"config":{"limits.cpu":"2"},"name":"web-01"}',
      '{"name":"c1"}',
      '{"config":{}}',
      "{}",
      '{"config":{"2":"b","1":"a","user.x":""}}',
    ]) {
      const decoded = JSON.parse(text);
      const common = commonInstancesPost(decoded);
      expect(common, text).toBeDefined();
      expect(JSON.stringify(common), text).toBe(throughSchema(JSON.parse(text)));
    }
  });

  it("leaves every other body to the schema, which keeps its refusals", () => {
    for (const text of [
      '{"name":"1bad","config":{}}',
      '{"name":"","config":{}}',
      '{"name":"c1","config":{"limits.cpu":1}}',
      '{"name":"c1","config":null}',
      '{"name":null}',
      '{"name":"c1","config":{"placement.group":"g1"}}',
      '{"name":"c1","config":{"placement.group":"1 bad"}}',
      '{"name":"c1","config":{"__proto__":"x"}}',
      '{"name":"c1","config":[]}',
      '{"name":"c1","profiles":["default"]}',
      '{"name":"c1","nope":true}',
      "[]",
      '"c1"',
      "null",
    ]) {
      expect(commonInstancesPost(JSON.parse(text)), text).toBeUndefined();
    }
    expect(throughSchema(JSON.parse('{"name":"1bad"}'))).toMatch(/^refused: /);
    expect(throughSchema(JSON.parse('{"name":"c1","config":{"placement.group":"1 bad"}}'))).toMatch(
      /^refused: .*placement group/,
    );
  });
});
