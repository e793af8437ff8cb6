/**
 * The `time` module of go.starlark.net (lib/time): durations and times with Go's parsing,
 * formatting and arithmetic. time.now() reads the clock through a thread-local function a host
 * may replace (`setTimeNow`), as upstream's SetNow; otherwise the system clock.
 */
import { StarEvalError } from "../values/errors.js";
import { StarModule } from "../values/module.js";
import type { Thread } from "../values/thread.js";
import { ArgError, asInt64, asString, param, unpackArgs, unpackPositionalArgs } from "../values/unpack.js";
import { Builtin, type BuiltinFn, typeName, type Value } from "../values/value.js";
import {
  HOUR,
  MICROSECOND,
  MILLISECOND,
  MINUTE,
  NANOSECOND,
  parseDuration,
  SECOND,
  StarDuration,
} from "./duration.js";
import { parseLayout, TimeParseError } from "./layout.js";
import { dateTime, StarTime, unixTime } from "./time-value.js";
import { fixedZone, LOCAL, type Location, loadLocation, lookup, UTC } from "./zone.js";

export { StarDuration } from "./duration.js";
export { StarTime } from "./time-value.js";

const NOW_KEY = "time.now";

/** Makes time.now() on `thread` return what `now` returns (epoch milliseconds), e.g. a fixed clock. */
export function setTimeNow(thread: Thread, now: () => number): void {
  thread.setLocal(NOW_KEY, now);
}

/** Go's error values surface as Starlark errors with their text. */
function goError<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof StarEvalError) throw e;
    throw new StarEvalError((e as Error).message);
  }
}

/** time.Duration's Unpack: a duration, or a string in ParseDuration syntax. */
function asDuration(v: Value): bigint {
  if (v instanceof StarDuration) return v.ns;
  if (typeof v === "string") return goError(() => parseDuration(v));
  throw new ArgError(`got ${typeName(v)}, want a duration, string, or int`);
}

const parseDurationFn: BuiltinFn = (_t, args, kwargs) => {
  const [d] = unpackPositionalArgs("parse_duration", args, kwargs, 1, [asDuration]) as [bigint];
  return new StarDuration(d);
};

const isValidTimezone: BuiltinFn = (_t, args, kwargs) => {
  const [name] = unpackPositionalArgs("is_valid_timezone", args, kwargs, 1, [asString]) as [string];
  try {
    loadLocation(name);
    return true;
  } catch {
    return false;
  }
};

/** Go's time.parse: the parsed fields placed in a location. */
function parseIn(layout: string, value: string, defaultLoc: Location, local: Location): StarTime {
  const p = parseLayout(layout, value);
  const at = (loc: Location) =>
    dateTime(p.year, p.month, p.day, p.hour, p.minute, p.second, p.nanosecond, loc);
  if (p.utc) return at(UTC);
  if (p.zoneOffset !== -1) {
    const t = at(UTC).add(-BigInt(p.zoneOffset) * SECOND);
    const here = lookup(local, t.sec);
    if (here.offset === p.zoneOffset && (p.zoneName === "" || here.abbrev === p.zoneName)) {
      return new StarTime(t.sec, t.nsec, local);
    }
    return new StarTime(t.sec, t.nsec, fixedZone(p.zoneName, p.zoneOffset));
  }
  if (p.zoneName !== "") {
    const t = at(UTC);
    // An abbreviation the local zone uses around that time (Go's lookupName).
    for (const probe of [t.sec, t.sec - 182 * 86400, t.sec + 182 * 86400]) {
      const z = lookup(local, probe);
      if (z.abbrev === p.zoneName) return new StarTime(t.sec - z.offset, t.nsec, local);
    }
    let offset = 0;
    if (p.zoneName.length > 3 && p.zoneName.startsWith("GMT")) offset = Number(p.zoneName.slice(3)) * 3600;
    return new StarTime(t.sec, t.nsec, fixedZone(p.zoneName, offset));
  }
  return at(defaultLoc);
}

const parseTime: BuiltinFn = (_t, args, kwargs) => {
  const [x, format, location] = unpackArgs("parse_time", args, kwargs, [
    param("x", asString),
    param("format?", asString),
    param("location?", asString),
  ]) as [string, string | undefined, string | undefined];
  const layout = format ?? "2006-01-02T15:04:05Z07:00";
  const where = location ?? "UTC";
  return goError(() => {
    try {
      if (where === "UTC") return parseIn(layout, x, UTC, LOCAL);
      const loc = loadLocation(where);
      return parseIn(layout, x, loc, loc);
    } catch (e) {
      if (e instanceof TimeParseError) throw new Error(e.message);
      throw e;
    }
  });
};

const fromTimestamp: BuiltinFn = (_t, args, kwargs) => {
  const [sec, nsec] = unpackPositionalArgs("from_timestamp", args, kwargs, 1, [asInt64, asInt64]) as [
    number | bigint,
    number | bigint | undefined,
  ];
  return unixTime(Number(sec), Number(nsec ?? 0), LOCAL);
};

const now: BuiltinFn = (t) => {
  const clock = t.getLocal(NOW_KEY) as (() => number) | undefined;
  const ms = clock === undefined ? Date.now() : clock();
  const sec = Math.floor(ms / 1000);
  return new StarTime(sec, Math.round((ms - sec * 1000) * 1e6), LOCAL);
};

const newTime: BuiltinFn = (_t, args, kwargs) => {
  const v = unpackArgs("time", args, kwargs, [
    param("year?", asInt64),
    param("month?", asInt64),
    param("day?", asInt64),
    param("hour?", asInt64),
    param("minute?", asInt64),
    param("second?", asInt64),
    param("nanosecond?", asInt64),
    param("location?", asString),
  ]);
  if (args.length > 0) throw new StarEvalError("time: unexpected positional arguments");
  const n = (i: number) => Number((v[i] as number | bigint | undefined) ?? 0);
  const loc = goError(() => loadLocation((v[7] as string | undefined) ?? ""));
  return dateTime(n(0), n(1), n(2), n(3), n(4), n(5), n(6), loc);
};

/** The `time` module value, offered to programs like `json`. */
export const timeModule = new StarModule(
  "time",
  new Map<string, Value>([
    ["from_timestamp", new Builtin("from_timestamp", fromTimestamp)],
    ["is_valid_timezone", new Builtin("is_valid_timezone", isValidTimezone)],
    ["now", new Builtin("now", now)],
    ["parse_duration", new Builtin("parse_duration", parseDurationFn)],
    ["parse_time", new Builtin("parse_time", parseTime)],
    ["time", new Builtin("time", newTime)],
    ["nanosecond", new StarDuration(NANOSECOND)],
    ["microsecond", new StarDuration(MICROSECOND)],
    ["millisecond", new StarDuration(MILLISECOND)],
    ["second", new StarDuration(SECOND)],
    ["minute", new StarDuration(MINUTE)],
    ["hour", new StarDuration(HOUR)],
  ]),
);
