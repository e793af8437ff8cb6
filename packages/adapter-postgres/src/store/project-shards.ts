/**
 * How many rows each project's limit counters are spread over (see
 * schema/instances.ts `project_usage`): claims of one busy project add to
 * different rows instead of queueing on one.
 */
export const PROJECT_SHARDS = 16;

export function randomShard(): number {
  return Math.floor(Math.random() * PROJECT_SHARDS);
}
