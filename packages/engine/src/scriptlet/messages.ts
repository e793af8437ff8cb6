/**
 * The texts callers see, as LXD/Incus word them (they are a compatibility
 * contract: operators grep logs and tests assert on them).
 */

/** Prefix of every placement failure caused by the scriptlet. */
export const FAILURE_PREFIX = "Failed instance placement scriptlet: ";

/** Prefix LXD puts before each scriptlet log line in the server log (the logger port gets the bare message). */
export const LOG_PREFIX = "Instance placement scriptlet: ";

/** The program name: positions in errors read `instance_placement:LINE:COL`. */
export const PROGRAM_NAME = "instance_placement";

/** The function the host calls. */
export const ENTRY_POINT = "instance_placement";

export const rejectedByReturnValue = (valueRepr: string): string =>
  `${FAILURE_PREFIX}Failed with return value: ${valueRepr}`;

export const failedToRun = (message: string): string => `${FAILURE_PREFIX}Failed to run: ${message}`;

export const failedInitializing = (message: string): string =>
  `${FAILURE_PREFIX}Failed initializing: ${message}`;

export const missingEntryPoint = (): string =>
  `${FAILURE_PREFIX}Scriptlet missing instance_placement function`;

export const notLoaded = (): string => `${FAILURE_PREFIX}Instance placement scriptlet not loaded`;

export const invalidMemberName = (name: string): string => `Invalid member name: ${name}`;

export const projectNotFound = (): string => "Project not found";

export const groupNotFound = (group: string): string =>
  `Cluster group ${JSON.stringify(group)} doesn't exist`;

/** `instance_placement:LINE:COL: message`, go.starlark.net's position format. */
export function positioned(
  pos: { filename: string; line: number; col: number } | undefined,
  message: string,
): string {
  return pos === undefined ? message : `${pos.filename}:${pos.line}:${pos.col}: ${message}`;
}
