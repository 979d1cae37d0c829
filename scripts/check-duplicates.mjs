// `npm run lint:duplicates`: repeated code in the portal's production source (jscpd, settings in .jscpd.json).
// A few clusters may stay where sharing would couple what must stay apart (each named in CODE_STYLE.md); more
// than MAX_CLUSTERS fails, so a new copy is shared before it lands.
import { readFileSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

// jscpd 4's ES module build does not load on Node 20 (it imports `colors/safe` without an extension).
const { detectClones } = createRequire(import.meta.url)("jscpd");
const ROOT = path.resolve(import.meta.dirname, "..");
const MAX_CLUSTERS = 3;

const options = JSON.parse(readFileSync(path.join(ROOT, ".jscpd.json"), "utf8"));
const clones = await detectClones({
  ...options,
  path: options.path.map((p) => path.join(ROOT, p)),
  silent: true,
  reporters: [],
});

const where = (part) => `${path.relative(ROOT, part.sourceId)}:${part.start.line}-${part.end.line}`;
for (const clone of clones) {
  console.log(
    `repeated (${clone.duplicationA.end.line - clone.duplicationA.start.line + 1} lines): ${where(clone.duplicationA)} = ${where(clone.duplicationB)}`,
  );
}
if (clones.length > MAX_CLUSTERS) {
  console.error(`${clones.length} clusters of repeated code (at most ${MAX_CLUSTERS}): share them.`);
  process.exit(1);
}
console.log(`${clones.length} cluster(s) of repeated code (at most ${MAX_CLUSTERS})`);
