/**
 * Go's time layouts ("2006-01-02T15:04:05Z07:00"): formatting and parsing as Go's time package
 * does them, which go.starlark.net's time.format, time.parse_time and str(time) rely on,
 * including its ParseError texts ("parsing time "x" as "layout": cannot parse "y" as "2006"").
 */
import { DAY_NAMES, daysIn, isLeap, MONTH_NAMES } from "./civil.js";
import { timeQuote } from "./quote.js";

/** The layout elements (Go's std* constants), with the width of fractional seconds. */
export type Std =
  | { kind: "none" }
  | { kind: "frac"; zeros: boolean; digits: number; sep: string }
  | {
      kind:
        | "longMonth"
        | "month"
        | "numMonth"
        | "zeroMonth"
        | "longWeekDay"
        | "weekDay"
        | "day"
        | "underDay"
        | "zeroDay"
        | "underYearDay"
        | "zeroYearDay"
        | "hour"
        | "hour12"
        | "zeroHour12"
        | "minute"
        | "zeroMinute"
        | "second"
        | "zeroSecond"
        | "longYear"
        | "year"
        | "PM"
        | "pm"
        | "TZ"
        | "ISO8601TZ"
        | "ISO8601SecondsTZ"
        | "ISO8601ShortTZ"
        | "ISO8601ColonTZ"
        | "ISO8601ColonSecondsTZ"
        | "NumTZ"
        | "NumSecondsTz"
        | "NumShortTZ"
        | "NumColonTZ"
        | "NumColonSecondsTZ";
    };

const ZERO_X: Std["kind"][] = ["zeroMonth", "zeroDay", "zeroHour12", "zeroMinute", "zeroSecond", "year"];

function isDigitAt(s: string, i: number): boolean {
  const c = s[i];
  return c !== undefined && c >= "0" && c <= "9";
}

function startsWithLowerCase(s: string): boolean {
  const c = s[0];
  return c !== undefined && c >= "a" && c <= "z";
}

/** Go's nextStdChunk: the text before the first layout element, the element, and the rest. */
export function nextStdChunk(layout: string): [string, Std, string] {
  for (let i = 0; i < layout.length; i++) {
    const rest = layout.slice(i);
    const at = (n: number) => layout.slice(i + n);
    const chunk = (kind: Std["kind"], len: number): [string, Std, string] => [
      layout.slice(0, i),
      { kind } as Std,
      at(len),
    ];
    switch (layout[i]) {
      case "J":
        if (rest.startsWith("Jan")) {
          if (rest.startsWith("January")) return chunk("longMonth", 7);
          if (!startsWithLowerCase(at(3))) return chunk("month", 3);
        }
        break;
      case "M":
        if (rest.startsWith("Mon")) {
          if (rest.startsWith("Monday")) return chunk("longWeekDay", 6);
          if (!startsWithLowerCase(at(3))) return chunk("weekDay", 3);
        }
        if (rest.startsWith("MST")) return chunk("TZ", 3);
        break;
      case "0": {
        const d = layout[i + 1];
        if (d !== undefined && d >= "1" && d <= "6") return chunk(ZERO_X[Number(d) - 1] as Std["kind"], 2);
        if (rest.startsWith("002")) return chunk("zeroYearDay", 3);
        break;
      }
      case "1":
        if (layout[i + 1] === "5") return chunk("hour", 2);
        return chunk("numMonth", 1);
      case "2":
        if (rest.startsWith("2006")) return chunk("longYear", 4);
        return chunk("day", 1);
      case "_":
        if (layout[i + 1] === "2") {
          // _2006 is really a literal _, followed by the long year.
          if (rest.startsWith("_2006")) return [layout.slice(0, i + 1), { kind: "longYear" }, at(5)];
          return chunk("underDay", 2);
        }
        if (rest.startsWith("__2")) return chunk("underYearDay", 3);
        break;
      case "3":
        return chunk("hour12", 1);
      case "4":
        return chunk("minute", 1);
      case "5":
        return chunk("second", 1);
      case "P":
        if (layout[i + 1] === "M") return chunk("PM", 2);
        break;
      case "p":
        if (layout[i + 1] === "m") return chunk("pm", 2);
        break;
      case "-":
        if (rest.startsWith("-070000")) return chunk("NumSecondsTz", 7);
        if (rest.startsWith("-07:00:00")) return chunk("NumColonSecondsTZ", 9);
        if (rest.startsWith("-0700")) return chunk("NumTZ", 5);
        if (rest.startsWith("-07:00")) return chunk("NumColonTZ", 6);
        if (rest.startsWith("-07")) return chunk("NumShortTZ", 3);
        break;
      case "Z":
        if (rest.startsWith("Z070000")) return chunk("ISO8601SecondsTZ", 7);
        if (rest.startsWith("Z07:00:00")) return chunk("ISO8601ColonSecondsTZ", 9);
        if (rest.startsWith("Z0700")) return chunk("ISO8601TZ", 5);
        if (rest.startsWith("Z07:00")) return chunk("ISO8601ColonTZ", 6);
        if (rest.startsWith("Z07")) return chunk("ISO8601ShortTZ", 3);
        break;
      case ".":
      case ",": {
        const ch = layout[i + 1];
        if (ch === "0" || ch === "9") {
          let j = i + 1;
          while (j < layout.length && layout[j] === ch) j++;
          if (!isDigitAt(layout, j)) {
            const std: Std = {
              kind: "frac",
              zeros: ch === "0",
              digits: j - (i + 1),
              sep: layout[i] as string,
            };
            return [layout.slice(0, i), std, layout.slice(j)];
          }
        }
        break;
      }
    }
  }
  return [layout, { kind: "none" }, ""];
}

/** The calendar fields of a time in its zone, what formatting needs. */
export interface Fields {
  year: number;
  month: number;
  day: number;
  yday: number;
  weekday: number;
  hour: number;
  minute: number;
  second: number;
  nanosecond: number;
  abbrev: string;
  offset: number;
}

function pad(x: number, width: number): string {
  const s = String(Math.abs(x)).padStart(width, "0");
  return x < 0 ? `-${s}` : s;
}

const ISO_TZ = new Set([
  "ISO8601TZ",
  "ISO8601ColonTZ",
  "ISO8601SecondsTZ",
  "ISO8601ShortTZ",
  "ISO8601ColonSecondsTZ",
]);
const COLON_TZ = new Set(["ISO8601ColonTZ", "NumColonTZ", "ISO8601ColonSecondsTZ", "NumColonSecondsTZ"]);
const SECONDS_TZ = new Set([
  "ISO8601SecondsTZ",
  "NumSecondsTz",
  "NumColonSecondsTZ",
  "ISO8601ColonSecondsTZ",
]);

/** Go's Time.Format. */
export function formatTime(f: Fields, layout: string): string {
  let out = "";
  while (layout !== "") {
    const [prefix, std, suffix] = nextStdChunk(layout);
    out += prefix;
    if (std.kind === "none") break;
    layout = suffix;
    switch (std.kind) {
      case "year":
        out += pad(Math.abs(f.year) % 100, 2);
        break;
      case "longYear":
        out += pad(f.year, 4);
        break;
      case "month":
        out += (MONTH_NAMES[f.month - 1] as string).slice(0, 3);
        break;
      case "longMonth":
        out += MONTH_NAMES[f.month - 1];
        break;
      case "numMonth":
        out += f.month;
        break;
      case "zeroMonth":
        out += pad(f.month, 2);
        break;
      case "weekDay":
        out += (DAY_NAMES[f.weekday] as string).slice(0, 3);
        break;
      case "longWeekDay":
        out += DAY_NAMES[f.weekday];
        break;
      case "day":
        out += f.day;
        break;
      case "underDay":
        out += (f.day < 10 ? " " : "") + f.day;
        break;
      case "zeroDay":
        out += pad(f.day, 2);
        break;
      case "underYearDay":
        out += (f.yday < 100 ? (f.yday < 10 ? "  " : " ") : "") + f.yday;
        break;
      case "zeroYearDay":
        out += pad(f.yday, 3);
        break;
      case "hour":
        out += pad(f.hour, 2);
        break;
      case "hour12":
        out += f.hour % 12 === 0 ? 12 : f.hour % 12;
        break;
      case "zeroHour12":
        out += pad(f.hour % 12 === 0 ? 12 : f.hour % 12, 2);
        break;
      case "minute":
        out += f.minute;
        break;
      case "zeroMinute":
        out += pad(f.minute, 2);
        break;
      case "second":
        out += f.second;
        break;
      case "zeroSecond":
        out += pad(f.second, 2);
        break;
      case "PM":
        out += f.hour >= 12 ? "PM" : "AM";
        break;
      case "pm":
        out += f.hour >= 12 ? "pm" : "am";
        break;
      case "TZ":
        if (f.abbrev !== "") {
          out += f.abbrev;
        } else {
          const zone = Math.trunc(f.offset / 60);
          const abs = Math.abs(zone);
          out += `${zone < 0 ? "-" : "+"}${pad(Math.floor(abs / 60), 2)}${pad(abs % 60, 2)}`;
        }
        break;
      case "frac": {
        let digits = String(f.nanosecond).padStart(9, "0").slice(0, Math.min(std.digits, 9));
        if (!std.zeros) digits = digits.replace(/0+$/, "");
        if (digits !== "") out += std.sep + digits;
        break;
      }
      default: {
        // numeric zones
        if (f.offset === 0 && ISO_TZ.has(std.kind)) {
          out += "Z";
          break;
        }
        const zone = Math.trunc(f.offset / 60);
        const absZone = Math.abs(zone);
        const absOffset = Math.abs(f.offset);
        out += `${zone < 0 ? "-" : "+"}${pad(Math.floor(absZone / 60), 2)}`;
        if (COLON_TZ.has(std.kind)) out += ":";
        if (std.kind !== "NumShortTZ" && std.kind !== "ISO8601ShortTZ") out += pad(absZone % 60, 2);
        if (SECONDS_TZ.has(std.kind)) {
          if (std.kind === "NumColonSecondsTZ" || std.kind === "ISO8601ColonSecondsTZ") out += ":";
          out += pad(absOffset % 60, 2);
        }
      }
    }
  }
  return out;
}

/** What a parse found: the date and clock, and the zone if the value named one. */
export interface Parsed {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  nanosecond: number;
  /** The value said UTC ("Z" or "UTC"). */
  utc: boolean;
  /** A numeric offset in seconds, or -1. */
  zoneOffset: number;
  /** A zone abbreviation ("EST"), or "". */
  zoneName: string;
}

export class TimeParseError extends Error {}

function parseError(
  layout: string,
  value: string,
  layoutElem: string,
  valueElem: string,
  message: string,
): TimeParseError {
  if (message !== "") return new TimeParseError(`parsing time ${timeQuote(value)}${message}`);
  return new TimeParseError(
    `parsing time ${timeQuote(value)} as ${timeQuote(layout)}: cannot parse ${timeQuote(valueElem)} as ${timeQuote(layoutElem)}`,
  );
}

const BAD = Symbol("bad");

function getnum(s: string, fixed: boolean): [number, string] | typeof BAD {
  if (!isDigitAt(s, 0)) return BAD;
  if (!isDigitAt(s, 1)) {
    if (fixed) return BAD;
    return [s.charCodeAt(0) - 48, s.slice(1)];
  }
  return [(s.charCodeAt(0) - 48) * 10 + (s.charCodeAt(1) - 48), s.slice(2)];
}

function getnum3(s: string, fixed: boolean): [number, string] | typeof BAD {
  let n = 0;
  let i = 0;
  for (; i < 3 && isDigitAt(s, i); i++) n = n * 10 + (s.charCodeAt(i) - 48);
  if (i === 0 || (fixed && i !== 3)) return BAD;
  return [n, s.slice(i)];
}

/** Go's atoi for layout fields: optional sign, digits, nothing else. */
function atoi(s: string): number | typeof BAD {
  return /^[+-]?[0-9]+$/.test(s) ? Number(s) : BAD;
}

function skip(value: string, prefix: string): string | typeof BAD {
  while (prefix.length > 0) {
    if (prefix[0] === " ") {
      if (value.length > 0 && value[0] !== " ") return BAD;
      prefix = prefix.replace(/^ +/, "");
      value = value.replace(/^ +/, "");
      continue;
    }
    if (value.length === 0 || value[0] !== prefix[0]) return BAD;
    prefix = prefix.slice(1);
    value = value.slice(1);
  }
  return value;
}

function lookupName(tab: readonly string[], val: string): [number, string] | typeof BAD {
  for (let i = 0; i < tab.length; i++) {
    const v = tab[i] as string;
    if (val.length >= v.length && val.slice(0, v.length).toLowerCase() === v.toLowerCase()) {
      return [i, val.slice(v.length)];
    }
  }
  return BAD;
}

function parseNanoseconds(value: string, nbytes: number): [number, string] | typeof BAD {
  if (value[0] !== "." && value[0] !== ",") return BAD;
  let n = nbytes;
  if (n > 10) n = 10;
  const ns = atoi(value.slice(1, n));
  if (ns === BAD) return BAD;
  if (ns < 0) return [0, "fractional second"];
  return [ns * 10 ** (10 - n), ""];
}

/** Go's parseTimeZone: the length of a zone abbreviation at the start of value, or 0. */
function parseTimeZone(value: string): number {
  if (value.length < 3) return 0;
  if (value.startsWith("ChST") || value.startsWith("MeST")) return 4;
  if (value.startsWith("GMT")) return 3 + parseSignedOffset(value.slice(3));
  if (value[0] === "+" || value[0] === "-") return parseSignedOffset(value);
  let n = 0;
  while (n < 6 && n < value.length && (value[n] as string) >= "A" && (value[n] as string) <= "Z") n++;
  switch (n) {
    case 5:
      return value[4] === "T" ? 5 : 0;
    case 4:
      return value[3] === "T" || value.startsWith("WITA") ? 4 : 0;
    case 3:
      return 3;
    default:
      return 0;
  }
}

function parseSignedOffset(value: string): number {
  if (value[0] !== "-" && value[0] !== "+") return 0;
  const m = /^[0-9]+/.exec(value.slice(1));
  if (m === null || Number(m[0]) > 23) return 0;
  return 1 + m[0].length;
}

const SHORT_DAYS = DAY_NAMES.map((d) => d.slice(0, 3));
const SHORT_MONTHS = MONTH_NAMES.map((m) => m.slice(0, 3));

/** Go's time.parse up to the point where a location is chosen; throws TimeParseError. */
export function parseLayout(layout: string, value: string): Parsed {
  const alayout = layout;
  const avalue = value;
  let amSet = false;
  let pmSet = false;
  let year = 0;
  let month = -1;
  let day = -1;
  let yday = -1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let nanosecond = 0;
  let utc = false;
  let zoneOffset = -1;
  let zoneName = "";
  for (;;) {
    const [prefix, std, suffix] = nextStdChunk(layout);
    const stdstr = layout.slice(prefix.length, layout.length - suffix.length);
    const skipped = skip(value, prefix);
    if (skipped === BAD) throw parseError(alayout, avalue, prefix, value, "");
    value = skipped;
    if (std.kind === "none") {
      if (value.length !== 0)
        throw parseError(alayout, avalue, "", value, `: extra text: ${timeQuote(value)}`);
      break;
    }
    layout = suffix;
    let bad = false;
    let rangeErr = "";
    const take = (r: [number, string] | typeof BAD): number => {
      if (r === BAD) {
        bad = true;
        return 0;
      }
      value = r[1];
      return r[0];
    };
    switch (std.kind) {
      case "year": {
        const y = value.length < 2 ? BAD : atoi(value.slice(0, 2));
        if (y === BAD) bad = true;
        else {
          value = value.slice(2);
          year = y >= 69 ? y + 1900 : y + 2000;
        }
        break;
      }
      case "longYear": {
        const y = value.length < 4 || !isDigitAt(value, 0) ? BAD : atoi(value.slice(0, 4));
        if (y === BAD) bad = true;
        else {
          year = y;
          value = value.slice(4);
        }
        break;
      }
      case "month":
        month = take(lookupName(SHORT_MONTHS, value)) + 1;
        break;
      case "longMonth":
        month = take(lookupName(MONTH_NAMES, value)) + 1;
        break;
      case "numMonth":
      case "zeroMonth":
        month = take(getnum(value, std.kind === "zeroMonth"));
        if (!bad && (month <= 0 || month > 12)) rangeErr = "month";
        break;
      case "weekDay":
        take(lookupName(SHORT_DAYS, value));
        break;
      case "longWeekDay":
        take(lookupName(DAY_NAMES, value));
        break;
      case "day":
      case "underDay":
      case "zeroDay":
        if (std.kind === "underDay" && value[0] === " ") value = value.slice(1);
        day = take(getnum(value, std.kind === "zeroDay"));
        break;
      case "underYearDay":
      case "zeroYearDay":
        for (let i = 0; i < 2; i++)
          if (std.kind === "underYearDay" && value[0] === " ") value = value.slice(1);
        yday = take(getnum3(value, std.kind === "zeroYearDay"));
        break;
      case "hour":
        hour = take(getnum(value, false));
        if (hour < 0 || hour >= 24) rangeErr = "hour";
        break;
      case "hour12":
      case "zeroHour12":
        hour = take(getnum(value, std.kind === "zeroHour12"));
        if (hour < 0 || hour > 12) rangeErr = "hour";
        break;
      case "minute":
      case "zeroMinute":
        minute = take(getnum(value, std.kind === "zeroMinute"));
        if (minute < 0 || minute >= 60) rangeErr = "minute";
        break;
      case "second":
      case "zeroSecond": {
        second = take(getnum(value, std.kind === "zeroSecond"));
        if (bad) break;
        if (second < 0 || second >= 60) {
          rangeErr = "second";
          break;
        }
        // Fractional seconds after the seconds field even when the layout has none.
        if (value.length >= 2 && (value[0] === "." || value[0] === ",") && isDigitAt(value, 1)) {
          const [, next] = nextStdChunk(layout);
          if (next.kind === "frac") break;
          let n = 2;
          while (n < value.length && isDigitAt(value, n)) n++;
          const r = parseNanoseconds(value, n);
          if (r === BAD) bad = true;
          else [nanosecond, rangeErr] = r;
          value = value.slice(n);
        }
        break;
      }
      case "PM":
      case "pm": {
        if (value.length < 2) {
          bad = true;
          break;
        }
        const p = value.slice(0, 2);
        value = value.slice(2);
        if (p === (std.kind === "PM" ? "PM" : "pm")) pmSet = true;
        else if (p === (std.kind === "PM" ? "AM" : "am")) amSet = true;
        else bad = true;
        break;
      }
      case "TZ": {
        if (value.startsWith("UTC")) {
          utc = true;
          value = value.slice(3);
          break;
        }
        const n = parseTimeZone(value);
        if (n === 0) {
          bad = true;
          break;
        }
        zoneName = value.slice(0, n);
        value = value.slice(n);
        break;
      }
      case "frac":
        if (std.zeros) {
          const ndigit = 1 + std.digits;
          if (value.length < ndigit) {
            bad = true;
            break;
          }
          const r = parseNanoseconds(value, ndigit);
          if (r === BAD) bad = true;
          else [nanosecond, rangeErr] = r;
          value = value.slice(ndigit);
        } else {
          if (value.length < 2 || (value[0] !== "." && value[0] !== ",") || !isDigitAt(value, 1)) break;
          let i = 0;
          while (i < 9 && i + 1 < value.length && isDigitAt(value, i + 1)) i++;
          const r = parseNanoseconds(value, 1 + i);
          if (r === BAD) bad = true;
          else [nanosecond, rangeErr] = r;
          value = value.slice(1 + i);
        }
        break;
      default: {
        // numeric zones
        const k = std.kind;
        if ((k === "ISO8601TZ" || k === "ISO8601ShortTZ" || k === "ISO8601ColonTZ") && value[0] === "Z") {
          value = value.slice(1);
          utc = true;
          break;
        }
        let parts: [string, string, string, string] | undefined;
        if (k === "ISO8601ColonTZ" || k === "NumColonTZ") {
          if (value.length >= 6 && value[3] === ":")
            parts = [value[0] as string, value.slice(1, 3), value.slice(4, 6), "00"];
          if (parts) value = value.slice(6);
        } else if (k === "NumShortTZ" || k === "ISO8601ShortTZ") {
          if (value.length >= 3) parts = [value[0] as string, value.slice(1, 3), "00", "00"];
          if (parts) value = value.slice(3);
        } else if (k === "ISO8601ColonSecondsTZ" || k === "NumColonSecondsTZ") {
          if (value.length >= 9 && value[3] === ":" && value[6] === ":") {
            parts = [value[0] as string, value.slice(1, 3), value.slice(4, 6), value.slice(7, 9)];
            value = value.slice(9);
          }
        } else if (k === "ISO8601SecondsTZ" || k === "NumSecondsTz") {
          if (value.length >= 7) {
            parts = [value[0] as string, value.slice(1, 3), value.slice(3, 5), value.slice(5, 7)];
            value = value.slice(7);
          }
        } else if (value.length >= 5) {
          parts = [value[0] as string, value.slice(1, 3), value.slice(3, 5), "00"];
          value = value.slice(5);
        }
        if (parts === undefined) {
          bad = true;
          break;
        }
        const [sign, hh, mm, ss] = parts;
        const h = atoi(hh);
        const m = atoi(mm);
        const s = atoi(ss);
        if (h === BAD || m === BAD || s === BAD || (sign !== "+" && sign !== "-")) {
          bad = true;
          break;
        }
        zoneOffset = (h * 60 + m) * 60 + s;
        if (sign === "-") zoneOffset = -zoneOffset;
      }
    }
    if (rangeErr !== "") throw parseError(alayout, avalue, stdstr, value, `: ${rangeErr} out of range`);
    if (bad) throw parseError(alayout, avalue, stdstr, value, "");
  }
  if (pmSet && hour < 12) hour += 12;
  else if (amSet && hour === 12) hour = 0;
  if (yday >= 0) {
    let d = 0;
    let m = 0;
    if (isLeap(year)) {
      if (yday === 31 + 29) {
        m = 2;
        d = 29;
      } else if (yday > 31 + 29) {
        yday--;
      }
    }
    if (yday < 1 || yday > 365) throw parseError(alayout, avalue, "", value, ": day-of-year out of range");
    if (m === 0) {
      const before = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365];
      m = Math.floor((yday - 1) / 31) + 1;
      if ((before[m] as number) < yday) m++;
      d = yday - (before[m - 1] as number);
    }
    if (month >= 0 && month !== m)
      throw parseError(alayout, avalue, "", value, ": day-of-year does not match month");
    month = m;
    if (day >= 0 && day !== d)
      throw parseError(alayout, avalue, "", value, ": day-of-year does not match day");
    day = d;
  } else {
    if (month < 0) month = 1;
    if (day < 0) day = 1;
  }
  if (day < 1 || day > daysIn(month, year))
    throw parseError(alayout, avalue, "", value, ": day out of range");
  return { year, month, day, hour, minute, second, nanosecond, utc, zoneOffset, zoneName };
}
