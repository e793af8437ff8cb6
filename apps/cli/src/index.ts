/**
 * @berth/cli: the `berth` command-line client. The binary is dist/main.js;
 * this module exposes the pieces other tools (and tests) can reuse.
 */
export { buildProgram, runCli } from "./cli.js";
export { type CliConfig, configPath, loadConfig, type RemoteEntry } from "./config/config-file.js";
export { type Connection, resolveConnection } from "./config/connection.js";
export type { Io } from "./context.js";
export { EXIT_CODE_HELP, ExitCode, exitCodeFor } from "./exit-codes.js";
export { OUTPUT_FORMATS, type OutputFormat } from "./output/format.js";
