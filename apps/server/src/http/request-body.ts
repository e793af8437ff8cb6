import type { IncomingMessage } from "node:http";
import type { MiddlewareHandler } from "hono";
import type { BodyBudget } from "./body-budget.js";
import { headerOf } from "./header.js";
import { HttpError } from "./http-error.js";
import type { ServerEnv } from "./server-env.js";

const tooLarge = (maxBytes: number) =>
  new HttpError(413, `Request body too large: the limit is ${maxBytes} bytes`);

/**
 * Refuses a body whose declared length is over the limit before anything
 * is read. Chunked bodies (no Content-Length) are counted while they are
 * read (`readRequestText`).
 */
export function declaredBodyLimit(maxBytes: number): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    const declared = headerOf(c, "content-length");
    if (declared !== undefined && Number.parseInt(declared, 10) > maxBytes) throw tooLarge(maxBytes);
    return next();
  };
}

function readIncoming(incoming: IncomingMessage, maxBytes: number, budget: BodyBudget): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const refuse = (error: unknown) => {
      cleanup();
      // Stop buffering; Node discards (or closes on) the rest of the body after the answer.
      incoming.resume();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      if (size + chunk.length > maxBytes) return refuse(tooLarge(maxBytes));
      try {
        budget.take(chunk.length);
      } catch (error) {
        return refuse(error);
      }
      size += chunk.length;
      chunks.push(chunk);
    };
    const onEnd = () => {
      const total = size;
      cleanup();
      resolve(
        chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks, total).toString("utf8"),
      );
    };
    const onClose = () => {
      if (!incoming.readableEnded) refuse(new Error("client closed the connection while sending the body"));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      // The text is handed on (or the request is refused): its bytes no longer count against the budget.
      budget.release(size);
      size = 0;
      incoming.off("data", onData);
      incoming.off("end", onEnd);
      incoming.off("error", onError);
      incoming.off("close", onClose);
    };
    incoming.on("data", onData);
    incoming.on("end", onEnd);
    incoming.on("error", onError);
    // A client that goes away mid-body must not keep its bytes counted.
    incoming.on("close", onClose);
  });
}

/**
 * Whether the whole body is in the stream's buffer already: Node's parser
 * said so (`complete`), or holds as many bytes as Content-Length declares.
 * On a kept-alive connection Node's parser hands the body to the stream and
 * reports the message complete in two calls into JavaScript, and a create's
 * handler reaches its body in between.
 */
function arrivedWhole(incoming: IncomingMessage): boolean {
  if (incoming.complete) return true;
  const declared = incoming.headers["content-length"];
  return declared !== undefined && incoming.readableLength === Number(declared);
}

/**
 * A body that has arrived whole (a create's body comes in the packet of its
 * headers), taken from the stream's buffer at once: no listeners, no promise
 * and no wait for `end`. On the kept-alive connection of the perf-http-3
 * measurements that wait and the stream's flowing mode were about 1 % of a
 * create's main-thread profile. The stream is left flowing, so it still
 * ends (and emits `end`) by itself once the parser reports the message complete.
 */
function readBuffered(incoming: IncomingMessage, maxBytes: number, budget: BodyBudget): string {
  const size = incoming.readableLength;
  try {
    if (size > maxBytes) throw tooLarge(maxBytes);
    budget.take(size);
  } catch (error) {
    // As readIncoming: Node discards the rest after the answer.
    incoming.resume();
    throw error;
  }
  try {
    const body = incoming.read() as Buffer | null;
    return body === null ? "" : body.toString("utf8");
  } finally {
    budget.release(size);
    incoming.resume();
  }
}

/**
 * The request body as text, at most `maxBytes`. On Node it is read straight
 * from the `IncomingMessage`: going through the fetch `Request` would build
 * an undici request and web streams for every create, a measurable part of
 * a placement's CPU time. Without Node bindings (`app.request()` in tests)
 * the fetch `Request` is read. Bytes held while a body arrives count against
 * `budget` (all requests' bodies together).
 */
export async function readRequestText(
  request: Request,
  incoming: IncomingMessage | undefined,
  maxBytes: number,
  budget: BodyBudget,
): Promise<string> {
  if (incoming !== undefined && !incoming.readableEnded && incoming.readableFlowing !== true) {
    if (arrivedWhole(incoming)) return readBuffered(incoming, maxBytes, budget);
    return readIncoming(incoming, maxBytes, budget);
  }
  const text = await request.text();
  if (Buffer.byteLength(text, "utf8") > maxBytes) throw tooLarge(maxBytes);
  return text;
}
