/**
 * Requests Node's HTTP parser refuses before Hono ever sees them (a bad
 * request line, headers over the size limit, a header timeout) get the LXD
 * error envelope too, written straight on the socket: Node's default
 * answer is a bare `400 Bad Request` with no body.
 */
import type { Server } from "node:http";
import type { Duplex } from "node:stream";
import { errorResponse } from "@berth/api-types";

interface ParserError extends Error {
  code?: string;
}

interface ClientErrorAnswer {
  status: number;
  reason: string;
  message: string;
}

const badRequest = (what: string): ClientErrorAnswer => ({
  status: 400,
  reason: "Bad Request",
  message: `Malformed HTTP request: ${what}`,
});

/** Parser error codes (llhttp's `HPE_*`, Node's own timeouts) with their own answer; others are a plain 400. */
const ANSWERS: Record<string, ClientErrorAnswer> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: "Request Header Fields Too Large",
    message: "Request header fields too large",
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: "Request Timeout",
    message: "Request timeout: the request was not received in time",
  },
  HPE_UNEXPECTED_CONTENT_LENGTH: badRequest("invalid Content-Length"),
  HPE_INVALID_CONTENT_LENGTH: badRequest("invalid Content-Length"),
  HPE_INVALID_TRANSFER_ENCODING: badRequest("invalid chunked encoding"),
  HPE_INVALID_CHUNK_SIZE: badRequest("invalid chunked encoding"),
  HPE_INVALID_METHOD: badRequest("invalid method"),
  HPE_INVALID_URL: badRequest("invalid request target"),
  HPE_INVALID_VERSION: badRequest("invalid HTTP version"),
  HPE_INVALID_HEADER_TOKEN: badRequest("invalid header"),
  HPE_INVALID_EOF_STATE: badRequest("invalid header"),
};
ANSWERS.HPE_HEADERS_TIMEOUT = ANSWERS.ERR_HTTP_REQUEST_TIMEOUT!;

const MALFORMED: ClientErrorAnswer = {
  status: 400,
  reason: "Bad Request",
  message: "Malformed HTTP request",
};

/** The status and text for a parser error code. */
export function clientErrorAnswer(code: string | undefined): ClientErrorAnswer {
  return (code !== undefined ? ANSWERS[code] : undefined) ?? MALFORMED;
}

/** Answers a parser error with the envelope where a response can still be written, and closes the connection. */
function answerClientError(err: ParserError, socket: Duplex): void {
  // The peer is gone (reset, aborted): there is nobody to answer.
  if (err.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  // A response already on the wire (a pipelined request failed mid-stream) cannot get a second status line.
  const current = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (current?.headersSent === true) {
    socket.destroy();
    return;
  }
  const { status, reason, message } = clientErrorAnswer(err.code);
  const body = JSON.stringify(errorResponse(status, message));
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export function answerClientErrorsWithEnvelope(server: Server): void {
  server.on("clientError", answerClientError);
}
