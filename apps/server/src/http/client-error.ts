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

/** The status and text for a parser error code (llhttp's `HPE_*`, Node's own timeouts). */
export function clientErrorAnswer(code: string | undefined): {
  status: number;
  reason: string;
  message: string;
} {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return {
        status: 431,
        reason: "Request Header Fields Too Large",
        message: "Request header fields too large",
      };
    case "ERR_HTTP_REQUEST_TIMEOUT":
    case "HPE_HEADERS_TIMEOUT":
      return {
        status: 408,
        reason: "Request Timeout",
        message: "Request timeout: the request was not received in time",
      };
    case "HPE_UNEXPECTED_CONTENT_LENGTH":
    case "HPE_INVALID_CONTENT_LENGTH":
      return {
        status: 400,
        reason: "Bad Request",
        message: "Malformed HTTP request: invalid Content-Length",
      };
    case "HPE_INVALID_TRANSFER_ENCODING":
    case "HPE_INVALID_CHUNK_SIZE":
      return {
        status: 400,
        reason: "Bad Request",
        message: "Malformed HTTP request: invalid chunked encoding",
      };
    case "HPE_INVALID_METHOD":
      return { status: 400, reason: "Bad Request", message: "Malformed HTTP request: invalid method" };
    case "HPE_INVALID_URL":
      return {
        status: 400,
        reason: "Bad Request",
        message: "Malformed HTTP request: invalid request target",
      };
    case "HPE_INVALID_VERSION":
      return { status: 400, reason: "Bad Request", message: "Malformed HTTP request: invalid HTTP version" };
    case "HPE_INVALID_HEADER_TOKEN":
    case "HPE_INVALID_EOF_STATE":
      return { status: 400, reason: "Bad Request", message: "Malformed HTTP request: invalid header" };
    default:
      return { status: 400, reason: "Bad Request", message: "Malformed HTTP request" };
  }
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
