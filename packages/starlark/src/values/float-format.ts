/**
 * Float formatting exactly as go.starlark.net prints floats: str/repr/%g use Go's
 * strconv.FormatFloat(f, 'g', -1, 64) (shortest round-trip digits) plus ".0" when the
 * result has neither '.' nor exponent; %e and %f use 6 digits of precision.
 */

function nonFinite(f: number): string {
  return Number.isNaN(f) ? "nan" : f > 0 ? "+inf" : "-inf";
}

/** Shortest digits and decimal exponent of |f| (f finite, non-zero): f = 0.d1d2d3... * 10^dp. */
function shortestDigits(f: number): { digits: string; exp: number } {
  // toExponential() with no argument gives the shortest round-trip digits.
  const s = Math.abs(f).toExponential();
  const e = s.indexOf("e");
  const mant = s.slice(0, e).replace(".", "");
  return { digits: mant, exp: Number(s.slice(e + 1)) };
}

function expSuffix(exp: number): string {
  const sign = exp < 0 ? "-" : "+";
  const a = Math.abs(exp);
  return `e${sign}${a < 10 ? "0" : ""}${a}`;
}

/** Go's %g with shortest precision, as go.starlark.net's str(float). */
export function formatFloatG(f: number): string {
  if (!Number.isFinite(f)) return nonFinite(f);
  if (f === 0) return Object.is(f, -0) ? "-0.0" : "0.0";
  const neg = f < 0 ? "-" : "";
  const { digits, exp } = shortestDigits(f);
  // Go's shortest 'g' uses %e when the decimal exponent is < -4 or >= 6.
  if (exp < -4 || exp >= 6) {
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return neg + mant + expSuffix(exp);
  }
  let out: string;
  if (exp < 0) {
    out = `0.${"0".repeat(-exp - 1)}${digits}`;
  } else if (exp + 1 >= digits.length) {
    out = digits + "0".repeat(exp + 1 - digits.length);
  } else {
    out = `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  }
  if (!out.includes(".")) out += ".0";
  return neg + out;
}

/** |f| as an exact rational num / den (den a power of two), for finite f. */
function exactRational(f: number): { num: bigint; den: bigint } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(f));
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp: number;
  if (biased === 0) exp = -1074;
  else {
    mant |= 1n << 52n;
    exp = biased - 1075;
  }
  return exp >= 0 ? { num: mant << BigInt(exp), den: 1n } : { num: mant, den: 1n << BigInt(-exp) };
}

/** round-half-even(num / den) for non-negative num, positive den. */
function roundHalfEven(num: bigint, den: bigint): bigint {
  const q = num / den;
  const r2 = (num % den) * 2n;
  if (r2 > den || (r2 === den && (q & 1n) === 1n)) return q + 1n;
  return q;
}

/** Go's %e with precision 6: d.dddddde±XX, correctly rounded (half to even). */
export function formatFloatE(f: number): string {
  if (!Number.isFinite(f)) return nonFinite(f);
  const sign = f < 0 || Object.is(f, -0) ? "-" : "";
  if (f === 0) return `${sign}0.000000e+00`;
  const { num, den } = exactRational(f);
  // Start from the shortest form's exponent and correct it if rounding crosses a power of ten.
  let exp = shortestDigits(f).exp;
  for (;;) {
    const shift = 6 - exp;
    const q =
      shift >= 0
        ? roundHalfEven(num * 10n ** BigInt(shift), den)
        : roundHalfEven(num, den * 10n ** BigInt(-shift));
    if (q >= 10000000n) exp++;
    else if (q < 1000000n) exp--;
    else {
      const d = q.toString();
      return `${sign}${d[0]}.${d.slice(1)}${expSuffix(exp)}`;
    }
  }
}

/** Go's %f with precision 6: exact decimal value, rounded half to even. */
export function formatFloatF(f: number): string {
  if (!Number.isFinite(f)) return nonFinite(f);
  const sign = f < 0 || Object.is(f, -0) ? "-" : "";
  const { num, den } = exactRational(f);
  const q = roundHalfEven(num * 1000000n, den)
    .toString()
    .padStart(7, "0");
  return `${sign}${q.slice(0, -6)}.${q.slice(-6)}`;
}
