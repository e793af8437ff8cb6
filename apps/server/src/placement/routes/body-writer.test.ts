import { describe, expect, it } from "vitest";
import { BodyWriter } from "./body-writer.js";

describe("a body written into one buffer", () => {
  it("holds the text as UTF-8 and the fragments, growing past its expected size", () => {
    const body = new BodyWriter(4);
    const pieces = ['{"a":', "[", '"é 雪 😀"', ",", "x".repeat(300), "]}"];
    for (const piece of pieces) body.text(piece);
    body.copy(Buffer.from("tail"));
    body.byte(0x7d);
    expect(body.done().toString("utf8")).toBe(`${pieces.join("")}tail}`);
    expect(body.done().length).toBe(Buffer.byteLength(`${pieces.join("")}tail}`));
  });

  it("is as long as what was written, not as its buffer", () => {
    const body = new BodyWriter(1024);
    body.text("{}");
    expect(body.done().length).toBe(2);
  });
});
