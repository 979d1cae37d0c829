/**
 * npm run bench:enumeration — does a sign-in, a password reset request or a sign-up take longer when the
 * account exists? (Issue: no account enumeration, timing within noise.) Each kind of request is sent for
 * an existing and for an unknown address, interleaved, in the same run; the unknown address is the
 * baseline. Prints the medians, their difference and the spread (interquartile range) of each.
 *
 * Runs in-process on the embedded PGlite (in memory) with real Argon2id hashing; the per-account and
 * per-IP limits are lifted so that only the work of each request is measured.
 */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { buildApp } from "../src/app.ts";
import { ensureUser } from "../src/accounts/accounts.ts";
import { loadConfig } from "../src/config.ts";
import { createPglite, fromPglite } from "../src/db/client.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
const ORIGIN = "http://127.0.0.1:3999";

function quantile(sorted: number[], q: number): number {
  const i = (sorted.length - 1) * q;
  const lo = Math.floor(i);
  const hi = Math.ceil(i);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (i - lo);
}

function summary(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  return { median: quantile(sorted, 0.5), iqr: quantile(sorted, 0.75) - quantile(sorted, 0.25) };
}

async function main() {
  const database = fromPglite(await createPglite());
  await database.migrate();
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "bench-enum-")),
    PUBLIC_URL: ORIGIN,
    BETTER_AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0123",
    DEMO_DATA: "off",
    LOG_LEVEL: "silent",
    SIGNUP_ALLOWED_DOMAINS: "firm.example",
    AUTH_IP_LIMIT_PER_MINUTE: "1000000",
    SIGNIN_MAX_FAILURES: "1000000",
    SIGNIN_MAX_FAILURES_PER_HOUR: "1000000",
  });
  const { app } = await buildApp({ config, database, logger: false });
  await app.ready();
  const existing = "existing.person@firm.example";
  await ensureUser(database.db, {
    email: existing,
    name: "Existing Person",
    password: "correct-ledger-passphrase",
    role: "client",
    resetExisting: false,
  });

  const post = async (url: string, payload: Record<string, string>) => {
    const started = performance.now();
    const res = await app.inject({
      method: "POST",
      url,
      headers: { origin: ORIGIN, "content-type": "application/json" },
      payload,
    });
    const ms = performance.now() - started;
    if (res.statusCode >= 500) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return ms;
  };

  let n = 0;
  const kinds: Record<string, (email: string) => Promise<number>> = {
    "sign-in (wrong password)": (email) =>
      post("/api/auth/sign-in/email", { email, password: `wrong-password-${n++}` }),
    "password reset request": (email) =>
      post("/api/auth/request-password-reset", { email, redirectTo: "/reset-password" }),
    "sign-up": (email) =>
      post("/api/auth/sign-up/email", {
        name: "Some Body",
        email: email === existing ? existing : `new-${n++}@firm.example`,
        password: "another-ledger-passphrase",
      }),
  };

  console.log(`bench:enumeration — ${ROUNDS} interleaved requests each, PGlite in memory, Argon2id`);
  console.log("request                      existing median (IQR)   unknown median (IQR)   difference");
  for (const [kind, send] of Object.entries(kinds)) {
    const times = { existing: [] as number[], unknown: [] as number[] };
    for (let i = 0; i < 5; i++) await send(`warm-${i}@firm.example`);
    for (let i = 0; i < ROUNDS; i++) {
      // Alternate which goes first, so drift in the machine's speed falls on both alike.
      const order = i % 2 ? (["existing", "unknown"] as const) : (["unknown", "existing"] as const);
      for (const who of order) {
        times[who].push(await send(who === "existing" ? existing : `nobody-${n++}@firm.example`));
      }
    }
    const a = summary(times.existing);
    const b = summary(times.unknown);
    const diff = a.median - b.median;
    const noise = Math.max(a.iqr, b.iqr);
    console.log(
      `${kind.padEnd(28)} ${a.median.toFixed(2).padStart(7)} ms (${a.iqr.toFixed(2)})` +
        `      ${b.median.toFixed(2).padStart(7)} ms (${b.iqr.toFixed(2)})` +
        `    ${diff >= 0 ? "+" : ""}${diff.toFixed(2)} ms ${Math.abs(diff) <= noise ? "(within noise)" : "(ABOVE NOISE)"}`,
    );
  }
  await app.close();
  await database.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
