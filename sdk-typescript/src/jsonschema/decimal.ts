// Exact multipleOf for decimals: 0.3 is a multiple of 0.1 although 0.3 / 0.1 is not an integer
// in binary floating point. Both numbers are taken as the decimals they print as (their
// shortest round-trip text, which is what the author wrote for any JSON literal) and compared
// as scaled integers.

interface Decimal {
  digits: bigint; // the value is digits × 10^exp
  exp: number;
}

function toDecimal(n: number): Decimal {
  const text = String(Math.abs(n)); // shortest round-trip form, e.g. "0.0075", "1e+308", "1.5e-7"
  const e = text.indexOf("e");
  const mantissa = e < 0 ? text : text.slice(0, e);
  let exp = e < 0 ? 0 : Number(text.slice(e + 1));
  const dot = mantissa.indexOf(".");
  let digits = mantissa;
  if (dot >= 0) {
    digits = mantissa.slice(0, dot) + mantissa.slice(dot + 1);
    exp -= mantissa.length - dot - 1;
  }
  return { digits: BigInt(digits), exp };
}

/**
 * Whether value is an integer multiple of divisor (> 0), exactly in decimal. A bigint is an
 * exact integer (one beyond 2^53 as written, which a number cannot hold).
 */
export function isMultipleOf(value: number | bigint, divisor: number | bigint): boolean {
  if (typeof value === "bigint" || typeof divisor === "bigint") return bigMultipleOf(value, divisor);
  if (!Number.isFinite(value)) return false;
  if (Number.isInteger(divisor) && Number.isSafeInteger(value) && Number.isSafeInteger(divisor)) return value % divisor === 0;
  const v = toDecimal(value);
  const d = toDecimal(divisor);
  const exp = Math.min(v.exp, d.exp);
  const a = v.digits * 10n ** BigInt(v.exp - exp);
  const b = d.digits * 10n ** BigInt(d.exp - exp);
  return a % b === 0n;
}

function bigMultipleOf(value: number | bigint, divisor: number | bigint): boolean {
  if (typeof value === "number") {
    // A number and an integer divisor beyond 2^53: only an integer can be its multiple.
    if (!Number.isInteger(value)) return false;
    value = BigInt(value);
  }
  if (typeof divisor === "bigint") return value % divisor === 0n;
  if (Number.isInteger(divisor)) return value % BigInt(divisor) === 0n;
  // A decimal divisor d × 10^exp (exp < 0): value is a multiple when value × 10^-exp is one of d.
  const d = toDecimal(divisor);
  return (value * 10n ** BigInt(-d.exp)) % d.digits === 0n;
}
