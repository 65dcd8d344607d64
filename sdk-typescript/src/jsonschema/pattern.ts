// Regular expressions of `pattern` and `patternProperties`: the portable dialect, which means
// the same in RE2 (Go), Python `re` and ECMAScript (the rules of docs/conformance.md and the
// shared vectors schema/vectors/patterns/dialect.json). A pattern is parsed by those rules and
// rewritten into an ECMAScript `u`-flag source with RE2's meaning where the engines differ:
// `\d`, `\w`, `\s` and `\b` are ASCII (`\s` is [\t\n\f\r ]), `.` is any character but \n,
// `$` is the end of the text. Anything outside the dialect is refused at compile time.
import { SchemaError } from "./refs.js";

const SPACE = "\\t\\n\\f\\r ";
const CLASS_BODY: Readonly<Record<string, string>> = { d: "0-9", w: "0-9A-Za-z_", s: SPACE };
const LONG: Readonly<Record<string, string>> = {
  Letter: "L", Uppercase_Letter: "Lu", Lowercase_Letter: "Ll", Titlecase_Letter: "Lt", Modifier_Letter: "Lm", Other_Letter: "Lo",
  Mark: "M", Nonspacing_Mark: "Mn", Spacing_Mark: "Mc", Enclosing_Mark: "Me", Number: "N", Decimal_Number: "Nd",
  Letter_Number: "Nl", Other_Number: "No", Punctuation: "P", Symbol: "S", Separator: "Z", Space_Separator: "Zs",
  Other: "C", Control: "Cc",
};
// The general categories RE2 knows (Go's unicode.Categories): no scripts, no binary properties.
const CATEGORIES = new Set(
  "C Cc Cf Co Cs L Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps S Sc Sk Sm So Z Zl Zp Zs".split(" "),
);
const REPEAT = /\{(\d+)(,(\d*))?\}/y;

class Translator {
  private i = 0;
  private readonly out: string[] = [];

  constructor(private readonly source: string) {}

  fail(why: string): never {
    throw new Error(`${why} (at offset ${this.i}); patterns must be portable across RE2, Python and ECMAScript`);
  }

  translate(): string {
    const s = this.source;
    while (this.i < s.length) {
      const ch = s[this.i]!;
      if (ch === "\\") {
        this.out.push(this.escape(false));
        continue;
      }
      if (ch === "[") {
        this.out.push(this.klass());
        continue;
      }
      if (ch === ".") this.out.push("[^\\n]");
      else if (ch === "(") {
        if (s.startsWith("(?", this.i)) {
          if (!s.startsWith("(?:", this.i)) this.fail("only (?: groups are portable");
          this.out.push("(?:");
          this.i += 3;
          continue;
        }
        this.out.push("(");
      } else if (ch === "*" || ch === "+" || ch === "?") {
        this.out.push(ch);
        this.lazyAndSingle();
      } else if (ch === "{") {
        REPEAT.lastIndex = this.i;
        const m = REPEAT.exec(s);
        if (m === null) this.fail("a literal { must be escaped");
        const low = Number(m[1]);
        const high = m[3];
        if (low > 1000 || (high !== undefined && high !== "" && Number(high) > 1000)) this.fail("repetition counts are at most 1000");
        if (high !== undefined && high !== "" && Number(high) < low) this.fail("a repetition range is reversed");
        this.out.push(m[0]);
        this.i += m[0].length - 1;
        this.lazyAndSingle();
      } else if (ch === "}" || ch === "]") this.fail(`a literal ${ch} must be escaped`);
      else this.out.push(ch); // ^ $ | ) and literals keep their meaning
      this.i++;
    }
    return this.out.join("");
  }

  // After a quantifier at i: an optional lazy `?`, then no second quantifier.
  private lazyAndSingle(): void {
    const s = this.source;
    if (s[this.i + 1] === "?") {
      this.out.push("?");
      this.i++;
    }
    const next = s[this.i + 1];
    if (next !== undefined && "*+?{".includes(next)) {
      this.i++;
      this.fail("a repetition of a repetition");
    }
  }

  private escape(inClass: boolean): string {
    const s = this.source;
    const c = s[this.i + 1];
    if (c === undefined) this.fail("a trailing backslash");
    const body = CLASS_BODY[c];
    if (body !== undefined) {
      this.i += 2;
      return inClass ? body : `[${body}]`;
    }
    if (c === "D" || c === "W" || c === "S") {
      if (inClass) this.fail(`\\${c} inside a class`);
      this.i += 2;
      return `[^${CLASS_BODY[c.toLowerCase()]!}]`;
    }
    if (c === "b" || c === "B") {
      if (inClass) this.fail(`\\${c} inside a class`);
      this.i += 2;
      return `\\${c}`; // ASCII word boundary under the u flag without i, as in RE2
    }
    if ("tnrfv".includes(c)) {
      this.i += 2;
      return `\\${c}`;
    }
    if (c === "x") {
      const hex = s.slice(this.i + 2, this.i + 4);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) this.fail("\\x takes exactly two hex digits");
      this.i += 4;
      return `\\x${hex}`;
    }
    if (c === "p" || c === "P") {
      let name: string;
      let after: number;
      if (s[this.i + 2] === "{") {
        const end = s.indexOf("}", this.i + 3);
        if (end < 0) this.fail("an unclosed \\p{");
        name = s.slice(this.i + 3, end);
        after = end + 1;
      } else {
        name = s.slice(this.i + 2, this.i + 3);
        after = this.i + 3;
      }
      const category = LONG[name] ?? name;
      if (!CATEGORIES.has(category)) this.fail(`\\p{${name}} is not a Unicode general category`);
      if (c === "P" && inClass) this.fail("\\P inside a class");
      this.i = after;
      return `\\${c}{${category}}`;
    }
    const code = c.charCodeAt(0);
    if (code < 0x80 && !/[0-9A-Za-z]/.test(c)) {
      // Escaped ASCII punctuation: a literal, written so ECMAScript reads it as one anywhere.
      this.i += 2;
      return `\\x${code.toString(16).padStart(2, "0")}`;
    }
    return this.fail(`the escape \\${c} is not portable`);
  }

  private klass(): string {
    const s = this.source;
    const out = ["["];
    this.i++;
    if (s[this.i] === "^") {
      out.push("^");
      this.i++;
    }
    if (s[this.i] === "]") this.fail("an empty class or a leading ] in a class");
    for (;;) {
      const ch = s[this.i];
      if (ch === undefined) this.fail("an unclosed class");
      if (ch === "]") {
        out.push("]");
        this.i++;
        return out.join("");
      }
      if (ch === "\\") {
        out.push(this.escape(true));
        continue;
      }
      if (ch === "[" && s[this.i + 1] === ":") this.fail("POSIX classes are not portable");
      out.push(ch === "[" ? "\\[" : ch);
      this.i++;
    }
  }
}

/** The pattern in ECMAScript `u`-flag syntax with RE2's meaning; throws when it is not portable. */
export function translatePattern(source: string): string {
  return new Translator(source).translate();
}

const cache = new Map<string, RegExp>();

/** Compile `pattern` (found at pointer `at`) or throw SchemaError naming why it is refused. */
export function compilePattern(pattern: string, at: string): RegExp {
  const known = cache.get(pattern);
  if (known !== undefined) return known;
  let re: RegExp;
  try {
    re = new RegExp(translatePattern(pattern), "u");
  } catch (err) {
    throw new SchemaError(at, `invalid regular expression ${JSON.stringify(pattern)}: ${(err as Error).message}`);
  }
  if (cache.size >= 1024) cache.clear(); // dynamic catalogs may bring unbounded patterns
  cache.set(pattern, re);
  return re;
}
