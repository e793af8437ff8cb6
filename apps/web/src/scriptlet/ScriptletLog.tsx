import type { ScriptletLogLine } from "@berth/api-types";

/** What a scriptlet logged (`log_info`, `log_warn`, `log_error`), in order, or that it logged nothing. */
export function ScriptletLog({ lines }: { lines: readonly ScriptletLogLine[] }) {
  if (lines.length === 0) return <p className="muted">It logged nothing.</p>;
  return (
    <ol className="log" aria-label="What the scriptlet logged">
      {lines.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: log lines have no identity but their order.
        <li key={index} className={`log-${line.level}`}>
          <span className="log-level">{line.level}</span> {line.message}
        </li>
      ))}
    </ol>
  );
}
