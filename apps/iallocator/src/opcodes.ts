/**
 * The jobs a move answer carries (`node-evacuate`, `change-group`): one job
 * per moved instance, each a list of Ganeti opcodes with the fields hail
 * sets. Ganeti submits them as they are.
 */
import type { SnapshotMoveStep } from "@berth/engine/ganeti";

export function opcodeOf(instance: string, step: SnapshotMoveStep): Record<string, unknown> {
  if (step.kind === "replace-secondary") {
    return {
      OP_ID: "OP_INSTANCE_REPLACE_DISKS",
      instance_name: instance,
      early_release: false,
      ignore_ipolicy: false,
      mode: "replace_new_secondary",
      disks: [],
      remote_node: step.node,
    };
  }
  const migrate: Record<string, unknown> = {
    OP_ID: "OP_INSTANCE_MIGRATE",
    instance_name: instance,
    allow_runtime_changes: false,
    ignore_ipolicy: false,
    cleanup: false,
    allow_failover: true,
    ignore_hvversions: true,
  };
  if (step.kind === "migrate") migrate.target_node = step.node;
  return migrate;
}
