import { describe, expect, it } from "vitest";
import { decodeEnvelope } from "./envelope.js";
import { BerthApiError, BerthTransportError } from "./errors.js";

describe("decodeEnvelope", () => {
  it("answers the metadata of a sync envelope", () => {
    expect(
      decodeEnvelope(200, JSON.stringify({ type: "sync", status_code: 200, metadata: { a: 1 } })),
    ).toEqual({
      a: 1,
    });
  });

  it("throws the server's error text and code as a BerthApiError", () => {
    const text = JSON.stringify({ type: "error", error: "ETag doesn't match: a vs b", error_code: 412 });
    let error: unknown;
    try {
      decodeEnvelope(412, text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BerthApiError);
    expect(error).toMatchObject({ status: 412, message: "ETag doesn't match: a vs b", metadata: null });
  });

  it("reports an answer that is not the envelope as a transport error", () => {
    expect(() => decodeEnvelope(502, "<html>Bad gateway</html>")).toThrow(BerthTransportError);
    expect(() => decodeEnvelope(502, "<html>Bad gateway</html>")).toThrow(
      "The server answered HTTP 502 with a body that is not JSON: <html>Bad gateway</html>",
    );
    expect(() => decodeEnvelope(200, '{"type":"async"}')).toThrow('Unexpected envelope type "async"');
  });
});
