import { BerthApi } from "@berth/client/node";
import type { Command } from "commander";
import { type CliConfig, loadConfig } from "./config/config-file.js";
import { type Connection, type ConnectionFlags, resolveConnection } from "./config/connection.js";
import { type Colors, colourEnabled, colours } from "./output/colour.js";
import { isDocumentFormat, type OutputFormat, parseOutputFormat } from "./output/format.js";

/** The process around the CLI: streams and environment (a test passes its own). */
export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
}

interface GlobalFlags extends ConnectionFlags {
  format?: string;
}

/**
 * What a command's action needs: the API client for the chosen remote, the
 * output format and colours, and the streams. Built per invocation from the
 * global flags, so nothing is read (config file, socket) until a command runs.
 */
export class CommandContext {
  readonly io: Io;
  readonly format: OutputFormat;
  readonly colors: Colors;
  readonly #flags: GlobalFlags;
  #config: CliConfig | undefined;
  #api: BerthApi | undefined;

  constructor(io: Io, command: Command, defaultFormat: OutputFormat = "table") {
    this.io = io;
    this.#flags = command.optsWithGlobals<GlobalFlags>();
    this.format = this.#flags.format !== undefined ? parseOutputFormat(this.#flags.format) : defaultFormat;
    this.colors = colours(
      colourEnabled(
        { isTTY: io.stdout.isTTY === true, env: io.env },
        this.format === "csv" || isDocumentFormat(this.format),
      ),
    );
  }

  /** `--token` and `--project` are global flags; `remote add` stores them rather than using them. */
  get connectionFlags(): ConnectionFlags {
    return { ...this.#flags };
  }

  get config(): CliConfig {
    this.#config ??= loadConfig(this.io.env);
    return this.#config;
  }

  connection(): Connection {
    return resolveConnection(this.#flags, this.config, this.io.env);
  }

  get api(): BerthApi {
    this.#api ??= new BerthApi(this.connection().options);
    return this.#api;
  }

  /** The project calls are scoped to (`--project`, `$BERTH_PROJECT`, the remote's, else the server's default). */
  get project(): string | undefined {
    return this.api.project;
  }

  /** True when a person is watching: progress displays and prompts only then. */
  get interactive(): boolean {
    return this.io.stdout.isTTY === true;
  }

  out(text: string): void {
    this.io.stdout.write(text.endsWith("\n") || text === "" ? text : `${text}\n`);
  }

  err(text: string): void {
    this.io.stderr.write(text.endsWith("\n") ? text : `${text}\n`);
  }
}
