import { describe, expect, it } from "vitest";
import { defineRoute, type RouteInput } from "./route-spec.js";

describe("defineRoute", () => {
  it('types a handler\'s path parameters from its Hono path (checked by tsc: no `params.x ?? ""`)', async () => {
    const route = defineRoute({
      method: "GET",
      path: "/1.0/things/:name/parts/:part",
      operationId: "getThingPart",
      summary: "test",
      tag: "test",
      access: "any",
      handle: ({ params }) => {
        const name: string = params.name;
        const part: string = params.part;
        // @ts-expect-error: `other` is not a parameter of this path
        const other: string = params.other;
        return { metadata: [name, part, other] };
      },
    });
    const input = { params: { name: "a", part: "b" } } as unknown as RouteInput<undefined>;
    expect((await route.handle(input)).metadata).toEqual(["a", "b", undefined]);
  });
});
