// `npm run lint:duplicates`: repeated code in the portal's production source (jscpd, settings in .jscpd.json).
// A few clusters may stay where sharing would only hide what a module uses (each named in CODE_STYLE.md); more
// than MAX_CLUSTERS fails, so a new copy is shared before it lands.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const MAX_CLUSTERS = 3;

// jscpd's own command (its package runs the command line when it is imported), with a JSON report to count.
const output = mkdtempSync(path.join(os.tmpdir(), "jscpd-"));
try {
  execFileSync(
    path.join(ROOT, "node_modules/.bin/jscpd"),
    ["--silent", "--reporters", "json", "--output", output],
    {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  const report = JSON.parse(readFileSync(path.join(output, "jscpd-report.json"), "utf8"));
  const where = (part) => `${part.name}:${part.start}-${part.end}`;
  for (const clone of report.duplicates) {
    console.log(`repeated (${clone.lines} lines): ${where(clone.firstFile)} = ${where(clone.secondFile)}`);
  }
  const clusters = report.duplicates.length;
  if (clusters > MAX_CLUSTERS) {
    console.error(`${clusters} clusters of repeated code (at most ${MAX_CLUSTERS}): share them.`);
    process.exitCode = 1;
  } else {
    console.log(`${clusters} cluster(s) of repeated code (at most ${MAX_CLUSTERS})`);
  }
} finally {
  rmSync(output, { recursive: true, force: true });
}
