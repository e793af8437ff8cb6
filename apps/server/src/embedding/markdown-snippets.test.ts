import { describe, expect, it } from "vitest";
import { snippetsOf } from "./markdown-snippets.js";

describe("snippetsOf", () => {
  it("takes the fenced block right after each marker, by name", () => {
    const markdown = [
      "# Title",
      "<!-- snippet: first -->",
      "```ts",
      'console.log("a");',
      "```",
      "```ts",
      "not marked",
      "```",
      "<!-- snippet: second -->",
      "```js",
      "one();",
      "two();",
      "```",
    ].join("\n");
    expect(snippetsOf(markdown)).toEqual(
      new Map([
        ["first", 'console.log("a");'],
        ["second", "one();\ntwo();"],
      ]),
    );
    expect(() => snippetsOf("<!-- snippet: x -->\n```\na\n```\n<!-- snippet: x -->\n```\nb\n```")).toThrow(
      'Two snippets are named "x"',
    );
  });
});
