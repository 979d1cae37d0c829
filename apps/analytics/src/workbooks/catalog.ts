import { randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import { DEMO_WORKBOOKS } from "@portal/contracts/demo";
import { parseWorkbookName } from "@portal/sigma";
import type { Database } from "../db/database.ts";
import { ZWorkbookSchema, type TWorkbook } from "./schema.ts";

export const WORKBOOKS_DIR = fileURLToPath(new URL("../../workbooks", import.meta.url));

export function slugOf(name: string): string {
  return name
    .trim()
    .replace(/&/g, "and")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/**
 * Loads and validates every `*.yaml` workbook definition of `workbooks/` and of any further directories; a
 * readable error names the file and the problem.
 */
export async function loadWorkbookDefinitions(
  dirs: readonly string[] = [WORKBOOKS_DIR],
): Promise<Map<string, TWorkbook>> {
  const files: string[] = [];
  for (const dir of dirs) {
    const names = (await readdir(dir)).filter((f) => f.endsWith(".yaml")).sort();
    files.push(...names.map((f) => path.join(dir, f)));
  }
  const byUrlId = new Map<string, TWorkbook>();
  for (const file of files) {
    const parsed = ZWorkbookSchema.safeParse(parseYaml(await readFile(file, "utf8")));
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `  - ${i.path.join(".")}: ${i.message}`).join("\n");
      throw new Error(`workbook ${file} is invalid:\n${issues}`);
    }
    if (byUrlId.has(parsed.data.urlId))
      throw new Error(`workbook ${file}: duplicate urlId ${parsed.data.urlId}`);
    byUrlId.set(parsed.data.urlId, parsed.data);
  }
  return byUrlId;
}

export async function ensureTeam(
  db: Database,
  name: string,
  description: string | null = null,
): Promise<string> {
  const existing = await db.query<{ team_id: string }>(
    "select team_id from analytics.teams where lower(name) = lower($1)",
    [name],
  );
  if (existing.rows[0]) return existing.rows[0].team_id;
  const inserted = await db.query<{ team_id: string }>(
    `insert into analytics.teams (team_id, name, description) values ($1, $2, $3)
     on conflict ((lower(name))) do update set name = analytics.teams.name
     returning team_id`,
    [randomUUID(), name, description],
  );
  return (inserted.rows[0] as { team_id: string }).team_id;
}

/**
 * Puts every workbook definition in the catalogue and shares the portal's demo workbooks with their teams
 * (DEMO_WORKBOOKS: the same names and teams the portal seeds), as a firm would have done in Sigma: a `view`
 * grant to each team, made once (a grant deleted through the REST API afterwards stays deleted only until
 * the next start).
 */
export async function seedCatalog(db: Database, workbooks: Map<string, TWorkbook>): Promise<void> {
  for (const wb of workbooks.values()) {
    await db.query(
      `insert into analytics.workbooks (workbook_id, url_id, name, description) values ($1, $2, $3, $4)
       on conflict (url_id) do update set name = excluded.name, description = excluded.description,
         updated_at = now()
       where (analytics.workbooks.name, analytics.workbooks.description)
         is distinct from (excluded.name, excluded.description)`,
      [randomUUID(), wb.urlId, wb.name, wb.description ?? null],
    );
  }
  for (const demo of DEMO_WORKBOOKS) {
    const parsed = parseWorkbookName(demo.workbookName);
    if (!parsed || !workbooks.has(parsed.urlId)) {
      throw new Error(`demo workbook ${demo.workbookName} has no definition in ${WORKBOOKS_DIR}`);
    }
    const teamId = await ensureTeam(db, demo.teamName);
    await db.query(
      `insert into analytics.workbook_grants (workbook_id, team_id)
       select workbook_id, $2 from analytics.workbooks where url_id = $1
       on conflict do nothing`,
      [parsed.urlId, teamId],
    );
  }
}
