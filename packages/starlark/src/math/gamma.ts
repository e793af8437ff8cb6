/**
 * The gamma function as Go's math.Gamma computes it (the Cephes algorithm: a rational
 * approximation on [2, 3] reached by recurrence, Stirling's formula above 33), so that
 * math.gamma answers what go.starlark.net answers. JavaScript has no Math.gamma.
 */

const P = [
  0.00016011952247675185, 0.0011913514700658638, 0.010421379756176158, 0.04763678004571372,
  0.20744822764843598, 0.4942148268014971, 1,
];
const Q = [
  -0.000023158187332412014, 0.0005396055804933034, -0.004456419138517973, 0.011813978522206043,
  0.035823639860549865, -0.23459179571824335, 0.0714304917030273, 1,
];
const S = [
  0.0007873113957930937, -0.00022954996161337813, -0.0026813261780578124, 0.0034722222160545866,
  0.08333333333334822,
];
const EULER = 0.5772156649015329;
const SQRT_TWO_PI = 2.5066282746310007;
const MAX_STIRLING = 143.01608;

function poly(c: readonly number[], x: number): number {
  let r = c[0] as number;
  for (let i = 1; i < c.length; i++) r = r * x + (c[i] as number);
  return r;
}

/** Stirling's formula as two factors (their product may overflow where each does not). */
function stirling(x: number): [number, number] {
  if (x > 200) return [Number.POSITIVE_INFINITY, 1];
  let w = 1 / x;
  w = 1 + w * poly(S, w);
  let y1 = Math.exp(x);
  let y2 = 1;
  if (x > MAX_STIRLING) {
    const v = x ** (0.5 * x - 0.25);
    [y1, y2] = [v, v / y1];
  } else {
    y1 = x ** (x - 0.5) / y1;
  }
  return [y1, SQRT_TWO_PI * w * y2];
}

export function gamma(x: number): number {
  if ((x < 0 && Number.isInteger(x)) || x === Number.NEGATIVE_INFINITY || Number.isNaN(x)) return Number.NaN;
  if (x === Number.POSITIVE_INFINITY) return x;
  if (x === 0) return Object.is(x, -0) ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  let q = Math.abs(x);
  let p = Math.floor(q);
  if (q > 33) {
    if (x >= 0) {
      const [y1, y2] = stirling(x);
      return y1 * y2;
    }
    const sign = p % 2 === 0 ? -1 : 1;
    let z = q - p;
    if (z > 0.5) {
      p += 1;
      z = q - p;
    }
    z = q * Math.sin(Math.PI * z);
    if (z === 0) return sign * Number.POSITIVE_INFINITY;
    const [sq1, sq2] = stirling(q);
    const absz = Math.abs(z);
    const d = absz * sq1 * sq2;
    z = Number.isFinite(d) ? Math.PI / d : Math.PI / absz / sq1 / sq2;
    return sign * z;
  }
  let z = 1;
  while (x >= 3) {
    x -= 1;
    z *= x;
  }
  while (x < 0) {
    if (x > -1e-9) return small(x, z);
    z /= x;
    x += 1;
  }
  while (x < 2) {
    if (x < 1e-9) return small(x, z);
    z /= x;
    x += 1;
  }
  if (x === 2) return z;
  x -= 2;
  p = poly(P, x);
  q = poly(Q, x);
  return (z * p) / q;
}

function small(x: number, z: number): number {
  if (x === 0) return Number.POSITIVE_INFINITY;
  return z / ((1 + EULER * x) * x);
}
