/** A member's or instance's status as a labelled badge (the word carries the meaning, colour only helps). */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status.toLowerCase()}`}>{status}</span>;
}
