// `npm run sigma:check`: is the configured BI service (a Sigma org, or the built-in analytics server) set up
// for the portal? Each check answers pass, fail (with the fix) or manual (only a browser can tell).
import { SigmaApiError, SigmaShapeError, type SigmaRestClient } from "@portal/sigma";
import { sql } from "drizzle-orm";
import type { AppConfig } from "../config.ts";
import type { Executor } from "../db/client.ts";
import { rows } from "../db/rows.ts";
import { urlIdOf } from "../outbox/requests.ts";
import type { Embedder } from "./embedder.ts";

export type CheckOutcome = "pass" | "fail" | "manual";
export interface CheckResult {
  name: string;
  outcome: CheckOutcome;
  /** What was found. */
  detail: string;
  /** What to do about a failure (or how to finish a manual check). */
  fix?: string;
}

/** The user attributes the portal's embeds carry for row-level security (access/embed-identity.ts). */
export const ROW_SECURITY_ATTRIBUTES = ["client_id", "client_ids"] as const;

export interface CheckOptions {
  config: AppConfig;
  db: Executor;
  client: SigmaRestClient;
  embedder: Embedder;
  /** The embed user the secret is tried with: it sees one workbook's layout and no client's rows. */
  checkEmail: string;
  fetch?: typeof fetch;
}

function reason(error: unknown): string {
  if (error instanceof SigmaApiError) return `${error.status} ${error.code}: ${error.message}`;
  if (error instanceof SigmaShapeError) return error.message;
  const cause = (error as { cause?: unknown }).cause;
  const text = error instanceof Error ? error.message : String(error);
  return cause instanceof Error ? `${text} (${cause.message})` : text;
}

const fail = (name: string, detail: string, fix: string): CheckResult => ({
  name,
  outcome: "fail",
  detail,
  fix,
});

async function catalogue(db: Executor) {
  return rows<{ workbook_name: string; team_name: string }>(
    await db.execute(sql`select workbook_name, team_name from workbooks order by id`),
  );
}

async function checkAccountTypes(config: AppConfig, client: SigmaRestClient): Promise<CheckResult> {
  const name = "Account types (SIGMA_ACCOUNT_TYPES)";
  try {
    const names = new Set((await client.listAccountTypes()).map((t) => t.accountTypeName));
    const wanted = Object.entries(config.sigma.accountTypes);
    const missing = wanted.filter(([, type]) => !names.has(type));
    if (missing.length === 0) {
      return { name, outcome: "pass", detail: wanted.map(([p, t]) => `${p} → ${t}`).join(", ") };
    }
    return fail(
      name,
      `Not in the org: ${missing.map(([p, t]) => `${t} (for ${p})`).join(", ")}. The org has: ${[...names].join(", ")}.`,
      "Set SIGMA_ACCOUNT_TYPES to account type names from Sigma's Administration → Account types, e.g. View=Viewer,Build=Creator.",
    );
  } catch (error) {
    return fail(
      name,
      `Could not list the account types: ${reason(error)}`,
      "Listing account types needs API credentials owned by a user with the Admin account type.",
    );
  }
}

async function checkAttributes(client: SigmaRestClient): Promise<CheckResult> {
  const name = "Row-security user attributes";
  try {
    const missing: string[] = [];
    for (const attribute of ROW_SECURITY_ATTRIBUTES) {
      const found = await client.listUserAttributes(attribute);
      if (!found.some((a) => a.name === attribute)) missing.push(attribute);
    }
    if (missing.length === 0) return { name, outcome: "pass", detail: ROW_SECURITY_ATTRIBUTES.join(", ") };
    return fail(
      name,
      `Missing: ${missing.join(", ")}.`,
      `Create the user attributes ${ROW_SECURITY_ATTRIBUTES.join(" and ")} in Sigma (Administration → User attributes) and filter the workbooks' data with CurrentUserAttributeText("client_id") / ("client_ids").`,
    );
  } catch (error) {
    return fail(name, `Could not list the user attributes: ${reason(error)}`, "Check the API credentials.");
  }
}

/** The catalogue's teams exist, and its workbooks exist in the org and are shared with their teams. */
async function checkCatalogue(db: Executor, client: SigmaRestClient): Promise<CheckResult[]> {
  const entries = await catalogue(db);
  const teamNames = [...new Set(entries.map((e) => e.team_name))];
  const teams = new Map<string, string>();
  const missingTeams: string[] = [];
  for (const team of teamNames) {
    const found = (await client.listTeams(team)).find((t) => t.name === team && !t.isArchived);
    if (found) teams.set(team, found.teamId);
    else missingTeams.push(team);
  }
  const results: CheckResult[] = [
    missingTeams.length === 0
      ? { name: "Teams", outcome: "pass", detail: teamNames.join(", ") || "(no workbooks in the catalogue)" }
      : fail(
          "Teams",
          `Missing: ${missingTeams.join(", ")}.`,
          "The portal makes a workbook's team when the workbook is added: look for a failed change on /admin/sync and Retry it, or create the team in Sigma with exactly this name.",
        ),
  ];
  const workbooks = await client.listWorkbooks();
  const missing: string[] = [];
  const unshared: string[] = [];
  for (const entry of entries) {
    const workbook = workbooks.find((w) => w.workbookUrlId === urlIdOf(entry.workbook_name) && !w.isArchived);
    if (!workbook) {
      missing.push(entry.workbook_name);
      continue;
    }
    const teamId = teams.get(entry.team_name);
    const grants = await client.listGrants({ inodeId: workbook.workbookId });
    if (!teamId || !grants.some((g) => g.teamId === teamId)) {
      unshared.push(`${entry.workbook_name} (team ${entry.team_name})`);
    }
  }
  results.push(
    missing.length === 0
      ? { name: "Catalogue workbooks exist", outcome: "pass", detail: `${entries.length} workbook(s)` }
      : fail(
          "Catalogue workbooks exist",
          `No workbook in the org has the URL id of: ${missing.join(", ")}.`,
          "Each catalogue name is <Name>-<workbookUrlId> from the workbook's URL in Sigma: correct it in Workbooks, or publish the workbook.",
        ),
    unshared.length === 0
      ? {
          name: "Workbooks shared with their teams",
          outcome: "pass",
          detail: `${entries.length} workbook(s)`,
        }
      : fail(
          "Workbooks shared with their teams",
          `Not shared: ${unshared.join(", ")}.`,
          "The portal shares a workbook with its team when it is added or edited: look for a failed change on /admin/sync and Retry it, or share the workbook with the team (Can view) in Sigma.",
        ),
  );
  return results;
}

/**
 * The embed credentials: a one-time URL for the catalogue's first workbook, for a check user who may open
 * it (its team) but sees no client's rows. The built-in server says at once whether the token verified; a
 * Sigma org checks the token in the browser, so there the check prints the URL to open (manual).
 */
async function checkEmbed(options: CheckOptions): Promise<CheckResult> {
  const name = "Embed credentials (SIGMA_EMBED_CLIENT_ID, SIGMA_EMBED_SECRET)";
  const [first] = await catalogue(options.db);
  if (!first) {
    return fail(name, "No workbook in the catalogue to try an embed with.", "Add a workbook in the portal.");
  }
  const minted = await options.embedder.mint(
    {
      email: options.checkEmail,
      firstName: "Portal",
      lastName: "Check",
      privilege: "View",
      teams: [first.team_name],
      userAttributes: { client_ids: "" },
    },
    first.workbook_name,
    { notAfter: new Date(Date.now() + 5 * 60_000) },
  );
  if (!options.config.sigma.builtIn) {
    return {
      name,
      outcome: "manual",
      detail: `A one-time link for ${first.workbook_name} as ${options.checkEmail} (works once, for five minutes).`,
      fix: `Open it in a browser: the workbook (with no client's figures) means the credentials work; "You don't have permission to access this page" means Sigma refused them. ${minted.url}`,
    };
  }
  try {
    const res = await (options.fetch ?? fetch)(minted.url, { headers: { "sec-fetch-dest": "document" } });
    const page = await res.text();
    if (res.ok)
      return { name, outcome: "pass", detail: `Opened ${first.workbook_name} as ${options.checkEmail}.` };
    const code = /\b(EINVAL|EACCES|ENOENT|EPERM|ESTALE|EEXIST|ETIMEDOUT|NETWORK|UNKNOWN)\b/.exec(page)?.[1];
    return fail(
      name,
      `The analytics server refused the embed (${res.status}${code ? ` ${code}` : ""}).`,
      code === "EINVAL"
        ? "SIGMA_EMBED_CLIENT_ID and SIGMA_EMBED_SECRET must be the embed credentials the analytics server knows (DATA_DIR/sigma-local.json when unset)."
        : "Check the workbook's team and sharing above.",
    );
  } catch (error) {
    return fail(name, `The embed URL could not be opened: ${reason(error)}`, "Check SIGMA_EMBED_BASE_URL.");
  }
}

/** Every check, in the order a person would fix them. */
export async function checkSigmaOrg(options: CheckOptions): Promise<CheckResult[]> {
  const { config, client } = options;
  const credentials = "API credentials (SIGMA_API_CLIENT_ID, SIGMA_API_CLIENT_SECRET)";
  try {
    await client.token();
  } catch (error) {
    const skipped = (name: string): CheckResult => ({
      name,
      outcome: "fail",
      detail: "Not checked: it needs working API credentials.",
    });
    return [
      fail(
        credentials,
        `${config.sigma.apiBaseUrl} did not give a token: ${reason(error)}`,
        "Set SIGMA_API_CLIENT_ID and SIGMA_API_CLIENT_SECRET to REST API credentials from Sigma (Administration → Developer access, owned by an Admin), and SIGMA_API_BASE_URL to your org's API host.",
      ),
      skipped("Account types (SIGMA_ACCOUNT_TYPES)"),
      skipped("Row-security user attributes"),
      skipped("Teams"),
      await checkEmbed(options),
    ];
  }
  const results: CheckResult[] = [
    { name: credentials, outcome: "pass", detail: `A token from ${config.sigma.apiBaseUrl}.` },
    await checkAccountTypes(config, client),
    await checkAttributes(client),
  ];
  try {
    results.push(...(await checkCatalogue(options.db, client)));
  } catch (error) {
    results.push(fail("Catalogue", `Could not be checked: ${reason(error)}`, "Check the API credentials."));
  }
  results.push(await checkEmbed(options));
  return results;
}

/** The checklist as a person reads it: one line per check, the fix under each failure. */
export function formatChecklist(results: CheckResult[]): string {
  const mark = { pass: "✔", fail: "✘", manual: "?" } as const;
  const lines = results.flatMap((r) => [
    `${mark[r.outcome]} ${r.name}: ${r.detail}`,
    ...(r.fix && r.outcome !== "pass" ? [`    ${r.outcome === "fail" ? "Fix" : "To do"}: ${r.fix}`] : []),
  ]);
  const failed = results.filter((r) => r.outcome === "fail").length;
  lines.push(
    failed === 0
      ? "All checks passed."
      : `${failed} check(s) failed: the portal cannot work with this org until they are fixed.`,
  );
  return lines.join("\n");
}
