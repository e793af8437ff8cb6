/**
 * One TCP port that speaks both plain HTTP and HTTPS, as berthd's listener
 * does once it has a certificate: the web console and token clients keep
 * using `http://HOST:PORT`, while LXD's client reaches `https://HOST:PORT`
 * with its client certificate. The first byte of a connection decides: a
 * TLS connection opens with a handshake record (content type 22).
 */
import { createServer, type Server as NetServer, type Socket } from "node:net";
import { Duplex } from "node:stream";

const TLS_HANDSHAKE = 0x16;

/**
 * Node's TLS layer reads straight from a socket's handle, so bytes already
 * read cannot be given back to it (`unshift` would lose them): a TLS
 * connection is passed on as a stream that starts with those bytes.
 */
function replaying(socket: Socket, first: Buffer): Duplex {
  const stream = new Duplex({
    read() {
      socket.resume();
    },
    write(chunk, encoding, callback) {
      socket.write(chunk, encoding, callback);
    },
    final(callback) {
      socket.end(callback);
    },
    destroy(error, callback) {
      socket.destroy(error ?? undefined);
      callback(error);
    },
  });
  stream.push(first);
  socket.on("data", (chunk: Buffer) => {
    if (!stream.push(chunk)) socket.pause();
  });
  socket.on("end", () => stream.push(null));
  socket.on("error", (error) => stream.destroy(error));
  socket.on("close", () => stream.destroy());
  return stream;
}

/** A TCP server handing each connection to `plain` or `secure` (neither of which listens itself). */
export function dualProtocolServer(
  plain: { emit(event: "connection", socket: Duplex): boolean },
  secure: { emit(event: "connection", socket: Duplex): boolean },
): NetServer {
  return createServer((socket) => {
    socket.once("data", (first: Buffer) => {
      socket.pause();
      if (first[0] === TLS_HANDSHAKE) {
        secure.emit("connection", replaying(socket, first));
      } else {
        socket.unshift(first);
        plain.emit("connection", socket);
        socket.resume();
      }
    });
  });
}
