/**
 * time.time: an instant (Unix seconds and nanoseconds) shown in a location, as go.starlark.net's
 * lib/time wraps Go's time.Time: its attributes (in its location), format() and in_location(),
 * comparisons by instant, and arithmetic with durations.
 */
import { StarEvalError } from "../values/errors.js";
import { checkPositionalArgs } from "../values/unpack.js";
import {
  type BinaryOp,
  Builtin,
  type CompareOp,
  normInt,
  type StarValue,
  typeName,
  type Value,
} from "../values/value.js";
import { civilFromDays, daysFromCivil, floorDiv, weekday, yearDay } from "./civil.js";
import { compareBig, int64, registerTimeType, SECOND, StarDuration } from "./duration.js";
import { type Fields, formatTime } from "./layout.js";
import { type Location, loadLocation, lookup, UTC } from "./zone.js";

/** Go's layout for Time.String. */
const STRING_LAYOUT = "2006-01-02 15:04:05.999999999 -0700 MST";

/** The Unix second of 0001-01-01 00:00:00 UTC, Go's zero Time. */
const ZERO_UNIX = -62135596800;

export class StarTime implements StarValue {
  readonly type = "time.time";
  /** sec: Unix seconds (an integer); nsec: 0 <= nsec < 1e9. */
  constructor(
    readonly sec: number,
    readonly nsec: number,
    readonly loc: Location,
  ) {}

  /** Nanoseconds since the Unix epoch. */
  get unixNano(): bigint {
    return BigInt(this.sec) * SECOND + BigInt(this.nsec);
  }

  fields(): Fields {
    const { abbrev, offset } = lookup(this.loc, this.sec);
    const local = this.sec + offset;
    const days = floorDiv(local, 86400);
    const secOfDay = local - days * 86400;
    const { year, month, day } = civilFromDays(days);
    return {
      year,
      month,
      day,
      yday: yearDay(year, month, day),
      weekday: weekday(days),
      hour: Math.floor(secOfDay / 3600),
      minute: Math.floor((secOfDay % 3600) / 60),
      second: secOfDay % 60,
      nanosecond: this.nsec,
      abbrev,
      offset,
    };
  }

  format(layout: string): string {
    return formatTime(this.fields(), layout);
  }

  /** t.Add(d). */
  add(d: bigint): StarTime {
    const total = BigInt(this.nsec) + (d % SECOND);
    let sec = this.sec + Number(d / SECOND);
    let nsec = Number(total);
    if (nsec >= 1e9) {
      sec++;
      nsec -= 1e9;
    } else if (nsec < 0) {
      sec--;
      nsec += 1e9;
    }
    return new StarTime(sec, nsec, this.loc);
  }

  freeze(): void {}
  truth(): boolean {
    return !(this.sec === ZERO_UNIX && this.nsec === 0);
  }
  hash(): number {
    const n = BigInt.asIntN(64, this.unixNano);
    return Number(BigInt.asIntN(32, n ^ (n >> 32n)));
  }
  repr(): string {
    return this.format(STRING_LAYOUT);
  }
  attrNames(): string[] {
    return [
      "format",
      "in_location",
      "year",
      "month",
      "day",
      "hour",
      "minute",
      "second",
      "nanosecond",
      "unix",
      "unix_nano",
    ];
  }
  getAttr(name: string): Value | undefined {
    switch (name) {
      case "year":
      case "month":
      case "day":
      case "hour":
      case "minute":
      case "second":
      case "nanosecond":
        return this.fields()[name];
      case "unix":
        return this.sec;
      case "unix_nano":
        return normInt(int64(this.unixNano));
      case "format":
        return FORMAT.bindReceiver(this);
      case "in_location":
        return IN_LOCATION.bindReceiver(this);
    }
    return undefined;
  }
  compareSameType(op: CompareOp, other: StarValue): boolean {
    return compareBig(op, this.unixNano, (other as StarTime).unixNano);
  }
  binary(op: BinaryOp, y: Value): Value | undefined {
    if (op === "+" && y instanceof StarDuration) return this.add(y.ns);
    if (op === "-") {
      if (y instanceof StarDuration) return this.add(-y.ns);
      if (y instanceof StarTime) return new StarDuration(int64(this.unixNano - y.unixNano));
    }
    return undefined;
  }
}

registerTimeType((v): v is StarTime => v instanceof StarTime);

function stringArg(fnName: string, args: Value[], kwargs: [string, Value][]): string {
  checkPositionalArgs(fnName, args, kwargs, 1, 1);
  const x = args[0] as Value;
  if (typeof x !== "string")
    throw new StarEvalError(`${fnName}: for parameter 1: got ${typeName(x)}, want string`);
  return x;
}

const FORMAT = new Builtin("format", (_t, args, kwargs, self) => {
  const layout = stringArg("format", args, kwargs);
  return (self.receiver as StarTime).format(layout);
});

const IN_LOCATION = new Builtin("in_location", (_t, args, kwargs, self) => {
  const name = stringArg("in_location", args, kwargs);
  const t = self.receiver as StarTime;
  let loc: Location;
  try {
    loc = loadLocation(name);
  } catch (e) {
    throw new StarEvalError((e as Error).message);
  }
  return new StarTime(t.sec, t.nsec, loc);
});

/** Go's time.Unix(sec, nsec): nsec outside [0, 1e9) carries into the seconds. */
export function unixTime(sec: number, nsec: number, loc: Location): StarTime {
  if (nsec < 0 || nsec >= 1e9) {
    const carry = Math.floor(nsec / 1e9);
    sec += carry;
    nsec -= carry * 1e9;
  }
  return new StarTime(sec, nsec, loc);
}

/**
 * Go's time.Date: the wall clock in `loc`, fields out of range carrying over (month 13 is
 * January of the next year), and at a daylight-saving change the offset in effect just before.
 */
export function dateTime(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  nsec: number,
  loc: Location,
): StarTime {
  const m0 = month - 1;
  year += floorDiv(m0, 12);
  month = m0 - floorDiv(m0, 12) * 12 + 1;
  second += floorDiv(nsec, 1e9);
  nsec -= floorDiv(nsec, 1e9) * 1e9;
  const wall = (daysFromCivil(year, month, 1) + day - 1) * 86400 + hour * 3600 + minute * 60 + second;
  let offset = lookup(loc, wall).offset;
  if (offset !== 0) {
    const second = lookup(loc, wall - offset).offset;
    if (second !== offset) offset = second;
  }
  return new StarTime(wall - offset, nsec, loc);
}

export { UTC };
