// Adds up the JSON reports of every test run in a folder and prints one `N passed, N failed` line.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const dir = process.argv[2] ?? "reports";
let passed = 0;
let failed = 0;
const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".json")) : [];
for (const file of files) {
  const report = JSON.parse(readFileSync(path.join(dir, file), "utf8"));
  if (report.stats && "expected" in report.stats) {
    // Playwright
    passed += report.stats.expected + (report.stats.flaky ?? 0);
    failed += report.stats.unexpected;
    console.log(`${file}: ${report.stats.expected} passed, ${report.stats.unexpected} failed`);
  } else if ("numPassedTests" in report) {
    // Vitest; a suite that failed to load counts as a failure even when it reported no test.
    const suiteErrors = (report.testResults ?? []).filter(
      (r) => r.status === "failed" && (r.assertionResults ?? []).every((a) => a.status !== "failed"),
    ).length;
    passed += report.numPassedTests;
    failed += report.numFailedTests + suiteErrors;
    console.log(`${file}: ${report.numPassedTests} passed, ${report.numFailedTests + suiteErrors} failed`);
  }
}
if (files.length === 0) failed += 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
