// Make `import "octet-extension-sdk"` resolve for examples/typescript: link
// examples/typescript/node_modules/octet-extension-sdk to this package (what a file:
// dependency would do, without a second lock file to keep in step).
import { mkdirSync, readlinkSync, symlinkSync, unlinkSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const pkg = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const modules = resolve(pkg, "../examples/typescript/node_modules");
const link = join(modules, "octet-extension-sdk");
const target = relative(modules, pkg);
mkdirSync(modules, { recursive: true });
let current;
try {
  current = readlinkSync(link);
} catch {
  current = undefined;
}
if (current !== target) {
  if (current !== undefined) unlinkSync(link);
  symlinkSync(target, link, "dir");
}
