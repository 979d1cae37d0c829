import path from "node:path";

/**
 * Ports of the server under test. `E2E_PORT_BASE` moves them all, so two checkouts on one machine can run
 * their journeys at the same time.
 */
const PORT_BASE = Number(process.env.E2E_PORT_BASE ?? 3210);
export const E2E_PORT = PORT_BASE;
export const E2E_SMTP_PORT = PORT_BASE - 684;
/** The built-in analytics server that `scripts/start.mjs` runs beside the portal (not the default 3100). */
export const E2E_ANALYTICS_PORT = PORT_BASE + 1;
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
/**
 * The portal and analytics server a journey starts for itself when it needs settings the suite's server
 * does not have (e2e/support/portal-instance.ts): one-minute workbook sessions.
 */
export const E2E_SHORT_SESSION_PORT = PORT_BASE + 2;
export const E2E_SHORT_SESSION_ANALYTICS_PORT = PORT_BASE + 3;
/** Failed sign-ins per account before the lock-out (SIGNIN_MAX_FAILURES of the server under test). */
export const E2E_SIGNIN_MAX_FAILURES = 5;
/**
 * The ADMIN_EMAIL admin of the server under test: created at start without two-step verification, so it
 * sets it up on its first sign-in (one journey uses it).
 */
export const E2E_NEW_ADMIN = {
  name: "Administrator",
  email: "e2e-new-admin@meridian-advisory.example",
  password: "e2e-first-sign-in-ledger-81",
} as const;

/** The run's directory made by playwright.config.ts (inherited by the workers). */
export function runDir(): string {
  const dir = process.env.E2E_RUN_DIR;
  if (!dir) throw new Error("E2E_RUN_DIR is not set: run the tests through playwright.config.ts.");
  return dir;
}

/** Where the test SMTP server files each received mail: one JSON-lines file per recipient. */
export function mailDir(): string {
  return path.join(runDir(), "mail");
}

export function mailFile(address: string): string {
  return path.join(mailDir(), `${address.toLowerCase().replace(/[^a-z0-9@._+-]/g, "_")}.jsonl`);
}

export type TReceivedMail = {
  to: string;
  subject: string;
  text: string;
  /** The HTML part (firm branding: the colour shows there). */
  html?: string;
  receivedAt: string;
};
