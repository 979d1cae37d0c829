import { Counter } from "prom-client";

// What the audit trail counts is counted where every row passes (audit/audit.ts), which knows nothing of the
// app it writes for: these two counters are the process's (`registers: []`), and each app's registry
// (metrics/registry.ts) adds them to what it serves. In production a process runs one app, so the process's
// count is the instance's; a test process with several apps reads differences between two scrapes.

/** Outcomes of completed sign-ins, as the trail's `auth.sign_in` rows record them. */
export const signIns = new Counter({
  name: "portal_sign_ins_total",
  help: "Sign-in attempts by outcome: success (a session was made), failure (wrong password, code or passkey, or refused), locked (refused by the per-account lock).",
  labelNames: ["outcome"] as const,
  registers: [],
});

export const auditRowsAppended = new Counter({
  name: "portal_audit_rows_appended_total",
  help: "Rows appended to the audit trail (statements that succeeded; a transaction rolled back later takes its rows with it).",
  registers: [],
});

const SIGN_IN_SERIES = ["success", "failure", "locked"] as const;
type SignInOutcome = (typeof SIGN_IN_SERIES)[number];

/**
 * The trail's outcome of an `auth.sign_in` row → the series' outcome. `denied` is a refused sign-in (403: a
 * password where the account must use its passkey, an unconfirmed email), so a failure; `rate_limited` is
 * written only by the per-account lock (auth/hooks/lock.ts; the per-address limit is audited as
 * `auth.request_refused`).
 */
const SIGN_IN_OUTCOMES: Record<string, SignInOutcome> = {
  success: "success",
  failure: "failure",
  denied: "failure",
  rate_limited: "locked",
};

// Every outcome is a series from the start, so a rate is defined before the first failure.
for (const outcome of SIGN_IN_SERIES) signIns.inc({ outcome }, 0);

/** Counts rows once their append succeeded (audit/audit.ts). */
export function countAuditRows(rows: ReadonlyArray<{ action: string; outcome: string }>): void {
  auditRowsAppended.inc(rows.length);
  for (const row of rows) {
    if (row.action !== "auth.sign_in") continue;
    const outcome = SIGN_IN_OUTCOMES[row.outcome];
    if (outcome) signIns.inc({ outcome });
  }
}
