/**
 * LXD's `core.https_address`, followed by berthd: when the server config
 * names an address, the TCP listener (HTTP and HTTPS on one port) moves
 * there; unset, it is back on `--listen`. The key lives in the database,
 * so every server sharing it follows it: at once on the server that took
 * the change, within a tick on the others.
 */
import { parseHttpsAddress } from "@berth/api-types";
import type { Logger } from "pino";
import type { RunningServer } from "../http/listen.js";
import { isLoopback } from "./options.js";

export const HTTPS_ADDRESS_KEY = "core.https_address";

type Address = { host: string; port: number } | undefined;

const keyOf = (address: Address) => (address === undefined ? "none" : `${address.host}:${address.port}`);

export class HttpsAddressFollower {
  #current: string;
  #lastProblem: string | undefined;

  constructor(
    private readonly running: RunningServer,
    /** `--listen`: where the port is while the key is unset. */
    private readonly fallback: Address,
    private readonly options: { placementNoauth: boolean; logger: Logger; moved(): void },
  ) {
    this.#current = keyOf(fallback);
  }

  /** Moves the port to where `value` says; answers why it cannot, if it cannot (the port stays). */
  async apply(value: string | undefined): Promise<string | undefined> {
    const wanted = value === undefined || value === "" ? this.fallback : parseHttpsAddress(value);
    if (keyOf(wanted) === this.#current) return undefined;
    if (wanted !== undefined && this.options.placementNoauth && !isLoopback(wanted.host))
      return "--placement-noauth allows loopback addresses only";
    try {
      await this.running.moveTcp(wanted);
    } catch (error) {
      return `cannot listen on ${keyOf(wanted)}: ${(error as Error).message}`;
    }
    this.#current = keyOf(wanted);
    this.options.moved();
    this.options.logger.info(
      { url: this.running.url, https_url: this.running.httpsUrl, [HTTPS_ADDRESS_KEY]: value ?? "" },
      "TCP listener moved",
    );
    return undefined;
  }

  /** On each tick: another server may have changed the key. Problems are logged once each. */
  async follow(config: Record<string, string>): Promise<void> {
    const problem = await this.apply(config[HTTPS_ADDRESS_KEY]);
    if (problem !== undefined && problem !== this.#lastProblem)
      this.options.logger.error({ [HTTPS_ADDRESS_KEY]: config[HTTPS_ADDRESS_KEY] }, problem);
    this.#lastProblem = problem;
  }
}
