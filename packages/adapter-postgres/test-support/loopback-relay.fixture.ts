/**
 * A TCP relay on loopback between a store and a real PostgreSQL, for tests
 * that need the network to fail at a chosen point: `down()` ends every
 * relayed connection and refuses new ones (the database is out of reach)
 * until `up()`; an armed `cut` ends the one connection that carries a
 * claim's token when its COMMIT goes through, either after PostgreSQL got
 * COMMIT (it commits and answers no one) or before (it rolls back).
 */
import { connect, createServer, type Server, type Socket } from "node:net";

export interface Cut {
  token: string;
  commit: "delivered" | "held back";
}

export class LoopbackRelay {
  cut: Cut | undefined;
  cuts = 0;
  #down = false;
  readonly #open = new Set<Socket>();
  readonly #server: Server;

  constructor(private readonly target: URL) {
    this.#server = createServer((client) => this.relay(client));
  }

  /** Listens on a free loopback port; answers `target` with that port. */
  async start(): Promise<URL> {
    const port = await new Promise<number>((resolve) => {
      this.#server.listen(0, "127.0.0.1", () => resolve((this.#server.address() as { port: number }).port));
    });
    const relayed = new URL(this.target);
    relayed.port = String(port);
    return relayed;
  }

  down(): void {
    this.#down = true;
    for (const socket of this.#open) socket.destroy();
  }

  up(): void {
    this.#down = false;
  }

  close(): void {
    this.down();
    this.#server.close();
  }

  private relay(client: Socket): void {
    if (this.#down) {
      client.destroy();
      return;
    }
    const upstream = connect(Number(this.target.port), this.target.hostname);
    this.#open.add(client).add(upstream);
    let carriesToken = false;
    client.on("data", (chunk: Buffer) => {
      const cut = this.cut;
      if (cut !== undefined && chunk.includes(cut.token)) carriesToken = true;
      if (cut === undefined || !carriesToken || !chunk.includes("COMMIT\u0000")) {
        upstream.write(chunk);
        return;
      }
      this.cut = undefined;
      this.cuts += 1;
      client.destroy();
      // Delivered: PostgreSQL gets COMMIT and answers it to no one. Held back: it never gets it.
      if (cut.commit === "delivered") upstream.end(chunk);
      else upstream.destroy();
    });
    upstream.on("data", (chunk: Buffer) => {
      if (!client.destroyed) client.write(chunk);
    });
    const close = () => {
      client.destroy();
      if (!upstream.writableEnded) upstream.destroy();
    };
    client.on("error", close);
    upstream.on("error", close);
    client.on("close", () => {
      this.#open.delete(client);
      close();
    });
    upstream.on("close", () => {
      this.#open.delete(upstream);
      client.destroy();
    });
  }
}
