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

/** Go's %e with precision 6: d.dddddde±XX. */
export function formatFloatE(f: number): string {
  if (!Number.isFinite(f)) return nonFinite(f);
  const s = f.toExponential(6);
  const e = s.indexOf("e");
  const sign = Object.is(f, -0) ? "-" : "";
  return sign + s.slice(0, e) + expSuffix(Number(s.slice(e + 1)));
}

/** Go's %f with precision 6, exact for large magnitudes. */
export function formatFloatF(f: number): string {
  if (!Number.isFinite(f)) return nonFinite(f);
  const sign = f < 0 || Object.is(f, -0) ? "-" : "";
  const a = Math.abs(f);
  if (a >= 1e21) return `${sign}${BigInt(a)}.000000`;
  return sign + a.toFixed(6);
}
