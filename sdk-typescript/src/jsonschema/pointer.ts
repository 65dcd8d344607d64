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
  const x = parsePointer(a);
  const y = parsePointer(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const c = compareCodePoints(x[i]!, y[i]!);
    if (c !== 0) return c;
  }
  return x.length - y.length;
}

/** String order by Unicode code point (JavaScript's < orders by UTF-16 unit, which differs above U+FFFF). */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const x = a[Symbol.iterator]();
  const y = b[Symbol.iterator]();
  for (;;) {
    const p = x.next();
    const q = y.next();
    if (p.done === true) return q.done === true ? 0 : -1;
    if (q.done === true) return 1;
    const d = p.value.codePointAt(0)! - q.value.codePointAt(0)!;
    if (d !== 0) return d;
  }
}
