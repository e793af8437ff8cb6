import { describe, expect, it } from "vitest";
import { BerthApiError, BerthTransportError } from "./errors.js";
import { waitForOperation } from "./operation-wait.js";
import type { Transport, TransportRequest } from "./transport.js";

const ACCEPTED = JSON.stringify({ type: "async", operation: "/1.0/operations/op1" });

/** A transport answering each `/wait` with the next operation record, recording the paths asked. */
function waitsAnswering(...operations: unknown[]): { transport: Transport; paths: string[] } {
  const paths: string[] = [];
  const transport: Transport = async (request: TransportRequest) => {
    paths.push(request.path);
    const metadata = operations.shift();
    return { status: 200, header: () => undefined, body: JSON.stringify({ type: "sync", metadata }) };
  };
  return { transport, paths };
}

describe("waitForOperation", () => {
  it("asks again while the operation runs, then answers the carried sync answer", async () => {
    const { transport, paths } = waitsAnswering(
      { status_code: 103 },
      {
        status_code: 200,
        metadata: { response: { status: 201, location: "/1.0/instances/c1", metadata: { name: "c1" } } },
      },
    );
    expect(await waitForOperation(transport, ACCEPTED, "team")).toEqual({
      status: 201,
      location: "/1.0/instances/c1",
      etag: undefined,
      metadata: { name: "c1" },
    });
    expect(paths).toEqual([
      "/1.0/operations/op1/wait?timeout=30&project=team",
      "/1.0/operations/op1/wait?timeout=30&project=team",
    ]);
  });

  it("throws the carried error (status, text), or the operation's err as a 400 without one", async () => {
    const carried = waitsAnswering({
      status_code: 400,
      err: "Failed instance creation: taken",
      metadata: { response: { status: 409, error: "taken", metadata: null } },
    });
    const error = await waitForOperation(carried.transport, ACCEPTED, undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BerthApiError);
    expect(error).toMatchObject({ status: 409, message: "taken" });
    expect(carried.paths).toEqual(["/1.0/operations/op1/wait?timeout=30"]);
    const bare = waitsAnswering({ status_code: 400, err: "Failed: no", metadata: null });
    expect(
      await waitForOperation(bare.transport, ACCEPTED, undefined).catch((e: unknown) => e),
    ).toMatchObject({
      status: 400,
      message: "Failed: no",
    });
  });

  it("reads an operation that finished before the 202 left without waiting", async () => {
    const { transport, paths } = waitsAnswering();
    const finished = JSON.stringify({
      type: "async",
      operation: "/1.0/operations/op1",
      metadata: { status_code: 200, metadata: { response: { status: 200, metadata: { name: "c1" } } } },
    });
    expect((await waitForOperation(transport, finished, undefined)).metadata).toEqual({ name: "c1" });
    expect(paths).toEqual([]);
  });

  it("refuses a 202 without an operation URL as a transport error", async () => {
    const { transport } = waitsAnswering();
    for (const body of ["not json", "null", JSON.stringify({ operation: "/elsewhere" })]) {
      const error = await waitForOperation(transport, body, undefined).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BerthTransportError);
    }
  });
});
