import { describe, expect, it } from "vitest";
import { testCluster } from "../testing/cluster.fixture.js";
import { failure } from "../testing/failure.fixture.js";

const ENTRY = "def instance_placement(request, candidate_members):";

describe("engine.checkScriptlet", () => {
  it("accepts what a config set accepts, and the empty value", async () => {
    const { engine } = await testCluster();
    expect(await engine.checkScriptlet(`${ENTRY}\n    pass\n`)).toBeUndefined();
    expect(await engine.checkScriptlet("")).toBeUndefined();
  });

  it("places compile errors at their line and column, with go.starlark.net's text", async () => {
    const { engine } = await testCluster();
    expect(await engine.checkScriptlet(`${ENTRY}\n    x = \n`)).toEqual({
      message: "instance_placement:2:9: got newline, want primary expression",
      line: 2,
      column: 9,
    });
    expect(await engine.checkScriptlet(`${ENTRY}\n    return undefined_name\n`)).toEqual({
      message: "instance_placement:2:12: undefined: undefined_name",
      line: 2,
      column: 12,
    });
  });

  it("places top-level run errors too; a wrong signature has no position", async () => {
    const { engine } = await testCluster();
    expect(await engine.checkScriptlet(`x = 1 // 0\n${ENTRY}\n    pass\n`)).toMatchObject({
      line: 1,
      column: 7,
    });
    expect(await engine.checkScriptlet("def instance_placement(a):\n    pass\n")).toEqual({
      message:
        'the required function "instance_placement" defines arguments ["a"] (expected ["candidate_members" "request"])',
      line: null,
      column: null,
    });
  });

  it("says what a config set says, which still refuses the scriptlet and keeps the one in force", async () => {
    const { engine } = await testCluster();
    const source = `${ENTRY}\n    x = \n`;
    const problem = (await engine.checkScriptlet(source))!;
    const error = await failure(engine.setConfig({ "instances.placement.scriptlet": source }));
    expect(error.kind).toBe("invalid");
    expect(error.message.endsWith(`: ${problem.message}`)).toBe(true);
    expect(error.details).toEqual({ line: 2, column: 9 });
    expect((await engine.getConfig()).values["instances.placement.scriptlet"]).toBeUndefined();
  });
});
