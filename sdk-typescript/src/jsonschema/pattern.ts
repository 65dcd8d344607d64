// Regular expressions of `pattern` and `patternProperties`: ECMAScript with the `u` flag, and
// only the dialect RE2 (Go), Python `re` and ECMAScript read alike. Constructs RE2 refuses —
// lookahead and lookbehind, backreferences — are refused here too, so a schema that compiles
// in one SDK compiles in all (docs/typescript.md lists the rules).
import { SchemaError } from "./refs.js";

const cache = new Map<string, RegExp>();

/** Why a pattern leaves the shared dialect, or null when it stays in it. */
function outsideDialect(pattern: string): string | null {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      const next = pattern[i + 1] ?? "";
      if (!inClass && /[1-9]/.test(next)) return "backreferences are not in the shared regex dialect";
      if (!inClass && next === "k" && pattern[i + 2] === "<") return "named backreferences are not in the shared regex dialect";
      i++;
    } else if (inClass) {
      if (c === "]") inClass = false;
    } else if (c === "[") inClass = true;
    else if (c === "(" && pattern[i + 1] === "?") {
      const rest = pattern.slice(i + 2, i + 4);
      if (rest.startsWith("=") || rest.startsWith("!") || rest === "<=" || rest === "<!") return "lookahead and lookbehind are not in the shared regex dialect";
    }
  }
  return null;
}

/** Compile `pattern` (found at pointer `at`) or throw SchemaError naming why it is refused. */
export function compilePattern(pattern: string, at: string): RegExp {
  const known = cache.get(pattern);
  if (known !== undefined) return known;
  const why = outsideDialect(pattern);
  if (why !== null) throw new SchemaError(at, `invalid regular expression ${JSON.stringify(pattern)}: ${why}`);
  let re: RegExp;
  try {
    re = new RegExp(pattern, "u");
  } catch (err) {
    throw new SchemaError(at, `invalid regular expression ${JSON.stringify(pattern)}: ${(err as Error).message}`);
  }
  if (cache.size >= 1024) cache.clear(); // dynamic catalogs may bring unbounded patterns
  cache.set(pattern, re);
  return re;
}
