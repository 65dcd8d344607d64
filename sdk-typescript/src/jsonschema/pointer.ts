// RFC 6901 JSON pointers: instance locations of faults and keyword locations in schemas.

/** One pointer token, escaped (`~` as `~0`, `/` as `~1`). */
export function escapeToken(token: string | number): string {
  const s = String(token);
  return s.includes("~") || s.includes("/") ? s.replace(/~/g, "~0").replace(/\//g, "~1") : s;
}

/** The pointer of a token path ("" is the root). */
export function toPointer(tokens: readonly (string | number)[]): string {
  let out = "";
  for (const t of tokens) out += `/${escapeToken(t)}`;
  return out;
}

/** The tokens of a pointer; throws on a pointer that does not start with `/`. */
export function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new Error(`JSON pointer ${JSON.stringify(pointer)} must start with "/"`);
  return pointer
    .slice(1)
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Compare two instance pointers token by token, by Unicode code point; a prefix sorts first. */
export function comparePointers(a: string, b: string): number {
  if (a === b) return 0;
  if (a.includes("~") || b.includes("~")) return compareTokens(parsePointer(a), parsePointer(b));
  // Without escapes the tokens are the text between slashes: one scan to the first difference.
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x === 0x2f) return -1; // a's token ends first: a prefix of b's token
    if (y === 0x2f) return 1;
    return unitOrder(x, y);
  }
  return a.length - b.length; // one is a prefix of the other (shallower, or a shorter last token)
}

function compareTokens(x: readonly string[], y: readonly string[]): number {
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const c = compareCodePoints(x[i]!, y[i]!);
    if (c !== 0) return c;
  }
  return x.length - y.length;
}

// Two different UTF-16 units at the first difference of two strings, in code point order: a
// surrogate (part of a character above U+FFFF) sorts after every unit from U+E000 up.
function unitOrder(x: number, y: number): number {
  const xs = x >= 0xd800 && x <= 0xdfff;
  const ys = y >= 0xd800 && y <= 0xdfff;
  if (xs !== ys) return xs ? (y >= 0xe000 ? 1 : x - y) : x >= 0xe000 ? -1 : x - y;
  return x - y;
}

/** String order by Unicode code point (JavaScript's < orders by UTF-16 unit, which differs above U+FFFF). */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return unitOrder(x, y);
  }
  return a.length - b.length;
}
