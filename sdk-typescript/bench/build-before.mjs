// Builds the interpreting checkSchema of before the validator rewrite (commit 5bb2d46) into a
// temporary directory and prints the module's path, for `OLD_SCHEMA=<path> npm run bench:validate`.
// Its wireparse dependency is replaced by a stub with the same writtenAsFloat (no frames here).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const BEFORE = "5bb2d46";
const pkg = join(dirname(fileURLToPath(import.meta.url)), "..");
const dir = mkdtempSync(join(tmpdir(), "octet-schema-before-"));
const src = join(dir, "src");
const out = join(dir, "out");
mkdirSync(src);
mkdirSync(out);
for (const file of ["schema.ts", "json.ts"]) {
  writeFileSync(join(src, file), execFileSync("git", ["show", `${BEFORE}:sdk-typescript/src/${file}`], { cwd: pkg }));
}
writeFileSync(
  join(src, "wireparse.ts"),
  "const floats = new WeakMap<object, Set<string | number>>();\nexport function writtenAsFloat(parent: object, key: string | number): boolean {\n  return floats.get(parent)?.has(key) === true;\n}\n",
);
writeFileSync(join(src, "package.json"), '{"type":"module"}\n');
writeFileSync(join(out, "package.json"), '{"type":"module"}\n');
execFileSync(
  join(pkg, "node_modules", ".bin", "tsc"),
  ["--target", "ES2022", "--module", "NodeNext", "--moduleResolution", "NodeNext", "--types", "node", "--typeRoots", join(pkg, "node_modules", "@types"), "--outDir", out, ...["schema.ts", "json.ts", "wireparse.ts"].map((f) => join(src, f))],
  { stdio: "inherit" },
);
console.log(join(out, "schema.js"));
