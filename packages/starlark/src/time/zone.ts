/**
 * Time zones for the `time` module: UTC, the process's local zone, fixed offsets (from parsed
 * times) and IANA zones by name, with offsets and abbreviations at an instant taken from the
 * Intl time zone data (Go reads the same tz database; ICU's abbreviations for zones outside the
 * Americas are numeric where Go's tzdata has letters).
 */
import { daysFromCivil } from "./civil.js";

export interface Location {
  /** Go's Location.String(): "UTC", "Local", an IANA name, or a fixed zone's name. */
  readonly name: string;
  /** IANA zone to look offsets up in; undefined for UTC and fixed zones. */
  readonly tz: string | undefined;
  /** A fixed zone's abbreviation and offset in seconds. */
  readonly fixed?: { readonly abbrev: string; readonly offset: number };
}

export const UTC: Location = { name: "UTC", tz: undefined, fixed: { abbrev: "UTC", offset: 0 } };

let localTz: string | undefined;

/**
 * The process's zone, looked up on first use: asking Intl costs ~13 ms (ICU's zone data), which
 * every `starlark` process would otherwise pay at start-up.
 */
export const LOCAL: Location = {
  name: "Local",
  get tz(): string {
    localTz ??= new Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC";
    return localTz;
  },
};

export function fixedZone(abbrev: string, offset: number): Location {
  return { name: abbrev, tz: undefined, fixed: { abbrev, offset } };
}

/** Go's time.LoadLocation; throws Error with Go's text for unknown or malformed names. */
export function loadLocation(name: string): Location {
  if (name === "" || name === "UTC") return UTC;
  if (name === "Local") return LOCAL;
  if (name.includes("..") || name.startsWith("/") || name.includes("\\")) {
    throw new Error("time: invalid location name");
  }
  try {
    formatter(name, "en-US");
  } catch {
    throw new Error(`unknown time zone ${name}`);
  }
  return { name, tz: name };
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string, locale: string): Intl.DateTimeFormat {
  const key = `${locale}|${tz}`;
  let f = formatters.get(key);
  if (f === undefined) {
    f = new Intl.DateTimeFormat(locale, {
      timeZone: tz,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      era: "short",
      timeZoneName: "short",
    });
    formatters.set(key, f);
  }
  return f;
}

/** Intl handles instants within about ±275,000 years; further ones take the nearest offset. */
const MAX_MS = 8.64e15;

/** The zone abbreviation and UTC offset (seconds) in effect at `unixSec`. */
export function lookup(loc: Location, unixSec: number): { abbrev: string; offset: number } {
  if (loc.fixed !== undefined) return loc.fixed;
  const tz = loc.tz as string;
  const ms = Math.max(-MAX_MS, Math.min(MAX_MS, unixSec * 1000));
  const parts = formatter(tz, "en-US").formatToParts(new Date(ms));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  let year = Number(get("year"));
  if (get("era") === "BC" || get("era") === "B") year = 1 - year;
  const wall =
    daysFromCivil(year, Number(get("month")), Number(get("day"))) * 86400 +
    Number(get("hour")) * 3600 +
    Number(get("minute")) * 60 +
    Number(get("second"));
  const offset = wall - Math.floor(ms / 1000);
  return { abbrev: abbreviation(tz, new Date(ms), get("timeZoneName"), offset), offset };
}

/**
 * Locales whose ICU short zone names are tzdata's abbreviations for these zones (en-US has them
 * only for the Americas): CET/CEST/BST, AEST/NZST, IST, SAST, JST. Elsewhere Go's tzdata mostly
 * has numeric abbreviations ("+04"), which is what ICU's "GMT+4" becomes below.
 */
function abbreviationLocale(tz: string): string | undefined {
  if (tz.startsWith("Europe/")) return "en-GB";
  if (tz.startsWith("Australia/") || tz === "Pacific/Auckland") return "en-AU";
  if (tz === "Asia/Kolkata" || tz === "Asia/Calcutta") return "en-IN";
  if (tz === "Africa/Johannesburg") return "en-ZA";
  if (tz === "Asia/Tokyo" || tz === "Japan") return "ja-JP";
  return undefined;
}

/** ICU's short name, or Go's numeric form ("+05", "-0330") where ICU has only "GMT+5". */
function abbreviation(tz: string, date: Date, name: string, offset: number): string {
  if (tz === "UTC" || tz === "Etc/UTC") return "UTC";
  if (!name.startsWith("GMT") && !name.startsWith("UTC")) return name;
  const locale = abbreviationLocale(tz);
  if (locale !== undefined) {
    const other = formatter(tz, locale)
      .formatToParts(date)
      .find((p) => p.type === "timeZoneName")?.value;
    if (other !== undefined && /^[A-Z]{3,5}$/.test(other) && !other.startsWith("GMT")) return other;
  }
  if (offset === 0) return "GMT";
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 3600)).padStart(2, "0");
  const mm = Math.floor((abs % 3600) / 60);
  return mm === 0 ? `${sign}${hh}` : `${sign}${hh}${String(mm).padStart(2, "0")}`;
}
