import { classLabel, formatAmount, percent } from "../format/amounts.js";
import type { ClassFill } from "./fill.js";

/**
 * One class's fill on one member: used, held by reservations, free, as a
 * bar with its numbers beside it. The text says everything the bar shows
 * (screen readers read it; the bar is decoration).
 */
export function FillBar({ resourceClass, fill }: { resourceClass: string; fill: ClassFill | undefined }) {
  if (fill === undefined) {
    return <span className="fill fill-none">no {classLabel(resourceClass)}</span>;
  }
  const width = (amount: number) =>
    fill.capacity > 0 ? `${Math.min(100, (amount / fill.capacity) * 100)}%` : "0%";
  const ratio =
    Number.isFinite(fill.allocationRatio) && fill.allocationRatio !== 1 ? ` ×${fill.allocationRatio}` : "";
  const reserved = fill.forthcoming > 0 ? `, ${formatAmount(resourceClass, fill.forthcoming)} reserved` : "";
  return (
    <span className="fill">
      <span className="fill-bar" aria-hidden="true">
        <span className="fill-used" style={{ width: width(fill.used) }} />
        <span className="fill-forthcoming" style={{ width: width(fill.forthcoming) }} />
      </span>
      <span className="fill-text">
        {percent(fill.fraction)} · {formatAmount(resourceClass, fill.used)}
        {reserved} of {formatAmount(resourceClass, fill.capacity)}
        {ratio}
      </span>
    </span>
  );
}
