import type { TPrivilege } from "@portal/contracts";
import { sql } from "drizzle-orm";
import { rows } from "../db/rows.ts";
import type { Executor } from "../db/client.ts";
import type { Principal } from "../plugins/authenticate.ts";
import type { EmbedUser } from "../sigma/embedder.ts";

export interface EmbedIdentity {
  user: EmbedUser;
  /** Every workbook this person may see, in catalogue order (id). */
  workbooks: { id: number; workbookName: string; teamName: string }[];
  /** The business client ids whose data this person may see. */
  clientIds: string[];
}

interface PersonRow {
  email: string;
  first_name: string;
  last_name: string;
  privilege: TPrivilege;
  client_ids: string[] | null;
  /** The linked BI member's kind (bi_members), if the outbox has found or made one. */
  bi_user_kind: string | null;
  workbooks: { id: number; workbookName: string; teamName: string }[] | null;
}

/** The person's linked BI member kind, by email (bi_members keeps emails in lower case). */
const BI_KIND = (alias: "c" | "e") =>
  sql.raw(`(select b.user_kind from bi_members b where b.email = lower(${alias}.email)) as bi_user_kind`);

/** A linked member of another kind than `embed` also signs in to Sigma directly (decision 017). */
const managedInSigma = (userKind: string | null | undefined) => userKind != null && userKind !== "embed";

function build(row: PersonRow | undefined, attribute: "client_id" | "client_ids"): EmbedIdentity | null {
  if (!row) return null;
  const workbooks = row.workbooks ?? [];
  const clientIds = row.client_ids ?? [];
  return {
    user: {
      email: row.email,
      firstName: row.first_name,
      lastName: row.last_name,
      privilege: row.privilege,
      teams: [...new Set(workbooks.map((w) => w.teamName))].sort(),
      // Row-level security in the BI service reads these; they come from the database only.
      userAttributes: { [attribute]: clientIds.join(",") },
      managedInSigma: managedInSigma(row.bi_user_kind),
    },
    workbooks,
    clientIds,
  };
}

/**
 * What a client or employee may see, from the database: for a client, their assigned workbooks and
 * their own client id; for an employee, the workbooks of every assigned client and those clients' ids.
 * Anyone else (admins, editors, authors, unknown users) has no client identity: null.
 */
export async function embedIdentityForUser(db: Executor, userId: string): Promise<EmbedIdentity | null> {
  const client = rows<PersonRow>(
    await db.execute(sql`
      select c.email, c.first_name, c.last_name, c.privilege, array[c.client_id] as client_ids, ${BI_KIND("c")},
        (select json_agg(json_build_object('id', w.id, 'workbookName', w.workbook_name, 'teamName', w.team_name) order by w.id)
           from client_workbooks cw join workbooks w on w.id = cw.workbook_id
          where cw.c_id = c.c_id) as workbooks
      from clients c where c.user_id = ${userId}`),
  )[0];
  if (client) return build(client, "client_id");

  const employee = rows<PersonRow>(
    await db.execute(sql`
      select e.email, e.first_name, e.last_name, e.privilege, ${BI_KIND("e")},
        (select array_agg(c.client_id order by c.client_id)
           from employee_clients ec join clients c on c.c_id = ec.c_id where ec.e_id = e.e_id) as client_ids,
        (select json_agg(json_build_object('id', w.id, 'workbookName', w.workbook_name, 'teamName', w.team_name) order by w.id)
           from workbooks w
          where w.id in (select cw.workbook_id from employee_clients ec
                           join client_workbooks cw on cw.c_id = ec.c_id where ec.e_id = e.e_id)) as workbooks
      from employees e where e.user_id = ${userId}`),
  )[0];
  return build(employee, "client_ids");
}

/**
 * `embedIdentityForUser` for many people at once, in two queries (the CSV import queues a batch of new
 * people for the BI service). Same rows, same `build`: people without a client identity are left out.
 */
export async function embedIdentitiesForUsers(
  db: Executor,
  userIds: string[],
): Promise<Map<string, EmbedIdentity>> {
  const found = new Map<string, EmbedIdentity>();
  if (userIds.length === 0) return found;
  const ids = sql.param(userIds);
  const clientRows = rows<PersonRow & { user_id: string }>(
    await db.execute(sql`
      select c.user_id, c.email, c.first_name, c.last_name, c.privilege, array[c.client_id] as client_ids, ${BI_KIND("c")},
        (select json_agg(json_build_object('id', w.id, 'workbookName', w.workbook_name, 'teamName', w.team_name) order by w.id)
           from client_workbooks cw join workbooks w on w.id = cw.workbook_id
          where cw.c_id = c.c_id) as workbooks
      from clients c where c.user_id = any(${ids}::text[])`),
  );
  for (const row of clientRows) found.set(row.user_id, build(row, "client_id")!);
  const employeeRows = rows<PersonRow & { user_id: string }>(
    await db.execute(sql`
      select e.user_id, e.email, e.first_name, e.last_name, e.privilege, ${BI_KIND("e")},
        (select array_agg(c.client_id order by c.client_id)
           from employee_clients ec join clients c on c.c_id = ec.c_id where ec.e_id = e.e_id) as client_ids,
        (select json_agg(json_build_object('id', w.id, 'workbookName', w.workbook_name, 'teamName', w.team_name) order by w.id)
           from workbooks w
          where w.id in (select cw.workbook_id from employee_clients ec
                           join client_workbooks cw on cw.c_id = ec.c_id where ec.e_id = e.e_id)) as workbooks
      from employees e where e.user_id = any(${ids}::text[])`),
  );
  for (const row of employeeRows)
    if (!found.has(row.user_id)) found.set(row.user_id, build(row, "client_ids")!);
  return found;
}

/**
 * What the caller may view. Admins may open any workbook of the catalogue, but carry no client
 * attribute, so row-level security in the BI service shows them no client's rows (deny by default).
 * Editors and authors have no client data (docs/DEVIATIONS.md).
 */
export async function viewingIdentity(db: Executor, principal: Principal): Promise<EmbedIdentity | null> {
  if (principal.role !== "admin") return embedIdentityForUser(db, principal.userId);
  const catalogue = rows<{ id: number; workbookName: string; teamName: string }>(
    await db.execute(
      sql`select id, workbook_name as "workbookName", team_name as "teamName" from workbooks order by id`,
    ),
  );
  const [firstName = principal.name, ...rest] = principal.name.split(" ");
  const linked = rows<{ user_kind: string }>(
    await db.execute(sql`select user_kind from bi_members where email = lower(${principal.email})`),
  )[0];
  return {
    user: {
      email: principal.email,
      firstName,
      lastName: rest.join(" "),
      privilege: "View",
      teams: [...new Set(catalogue.map((w) => w.teamName))].sort(),
      userAttributes: { client_ids: "" },
      managedInSigma: managedInSigma(linked?.user_kind),
      linked: linked !== undefined,
    },
    workbooks: catalogue,
    clientIds: [],
  };
}
