/**
 * Proleptic Gregorian calendar arithmetic on day numbers (days since 1970-01-01), as Go's time
 * package computes dates for any year.
 */

/** Floor division for numbers that are integers. */
export function floorDiv(a: number, b: number): number {
  return Math.floor(a / b);
}

export function isLeap(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

const DAYS_BEFORE = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365];

export function daysIn(month: number, year: number): number {
  if (month === 2 && isLeap(year)) return 29;
  return (DAYS_BEFORE[month] as number) - (DAYS_BEFORE[month - 1] as number);
}

/** Day number of year-month-day (month 1..12, day 1..31; Hinnant's days_from_civil). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = floorDiv(y, 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = floorDiv(153 * mp + 2, 5) + day - 1;
  const doe = yoe * 365 + floorDiv(yoe, 4) - floorDiv(yoe, 100) + doy;
  return era * 146097 + doe - 719468;
}

/** year, month (1..12), day (1..31) of a day number (Hinnant's civil_from_days). */
export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719468;
  const era = floorDiv(z, 146097);
  const doe = z - era * 146097;
  const yoe = floorDiv(doe - floorDiv(doe, 1460) + floorDiv(doe, 36524) - floorDiv(doe, 146096), 365);
  const doy = doe - (365 * yoe + floorDiv(yoe, 4) - floorDiv(yoe, 100));
  const mp = floorDiv(5 * doy + 2, 153);
  const day = doy - floorDiv(153 * mp + 2, 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: era * 400 + yoe + (month <= 2 ? 1 : 0), month, day };
}

/** Day of the year, 1-based. */
export function yearDay(year: number, month: number, day: number): number {
  return (DAYS_BEFORE[month - 1] as number) + day + (month > 2 && isLeap(year) ? 1 : 0);
}

/** 0 = Sunday. */
export function weekday(days: number): number {
  return (((days + 4) % 7) + 7) % 7;
}

export const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
export const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
