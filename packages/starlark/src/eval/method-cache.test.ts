import { describe, expect, it } from "vitest";
import { compile } from "../host/compile.js";
import { StarlarkError, Thread } from "../values/index.js";

function run(src: string): string {
  let out = "";
  try {
    compile(src, { filename: "t.star", predeclared: [] }).init(
      new Thread({ print: (_t, m) => (out += `${m}\n`) }),
      {},
    );
  } catch (e) {
    if (e instanceof StarlarkError) return `${out}error: ${e.message}`;
    throw e;
  }
  return out;
}

describe("method call sites cache the method per receiver type", () => {
  it("dispatches correctly when one call site sees different types", () => {
    const src = `
def pop(x, *a):
    return x.pop(*a)
def find_b(x):
    return x.index("b")
print(pop([1, 2]), pop({"k": 7}, "k"), pop([3]), pop({"j": 8}, "j"))
print(find_b(["a", "b"]), find_b("cab"), find_b(["b"]))
print(pop("s"))
`;
    expect(run(src)).toBe("2 7 3 8\n1 2 0\nerror: string has no .pop field or method");
  });
});
