import type { TPrivilege, TRole } from "@portal/contracts";
import { sql } from "drizzle-orm";
import { rows } from "../db/rows.ts";
import type { Executor } from "../db/client.ts";
import type { EmbedUser } from "../sigma/embedder.ts";
import {
  activeDelegations,
  householdClientIds,
  teamsOf,
  type ActiveDelegation,
  type IdentityWorkbook,
} from "./circle-identity.ts";

/**
 * Who asks to view: the signed-in principal's fields these rules read (structural, so the access rules do not
 * import the authentication plugin and, through it, Better Auth's set-up, whose hooks queue BI members).
 */
interface Viewer {
  userId: string;
  email: string;
  name: string;
  role: TRole | null;
}

export interface EmbedIdentity {
  user: EmbedUser;
  /** Every workbook this person may see, in catalogue order (id). */
  workbooks: IdentityWorkbook[];
  /** The business client ids whose data this person may see. */
  clientIds: string[];
  /** A delegate viewing a client (issue 23): the delegation it rests on. */
  delegation?: ActiveDelegation;
  /** When this decision stops holding by itself (a delegation's end date): caches keep it no longer. */
  expiresAt?: Date;
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

/**
 * The row-security attributes (docs/sigma.md, step 3): a client's own id in `client_id`; everyone else's
 * clients in `client_ids`. Every embed names both, so a value from an earlier embed of the same person (a
 * client who is also someone's delegate) never stays on their Sigma member.
 */
export const rowSecurity = (own: string, others: string[]) => ({
  client_id: own,
  client_ids: others.join(","),
});

function build(
  row: PersonRow | undefined,
  attribute: "client_id" | "client_ids",
  delegated: IdentityWorkbook[] = [],
): EmbedIdentity | null {
  if (!row) return null;
  const workbooks = row.workbooks ?? [];
  const clientIds = row.client_ids ?? [];
  return {
    user: {
      email: row.email,
      firstName: row.first_name,
      lastName: row.last_name,
      privilege: row.privilege,
      // The BI member belongs to the teams of everything the person may view, delegations included.
      teams: teamsOf(workbooks, delegated),
      // Row-level security in the BI service reads these; they come from the database only.
      userAttributes:
        attribute === "client_id" ? rowSecurity(clientIds[0] ?? "", []) : rowSecurity("", clientIds),
      managedInSigma: managedInSigma(row.bi_user_kind),
    },
    workbooks,
    clientIds,
  };
}

/**
 * What a person may see of their own, from the database: for a client, their assigned workbooks and their
 * own client id (with a household's combined view, every member's id too); for an employee, the workbooks of
 * every assigned client and those clients' ids; for a delegate with no record of their own, nothing of their
 * own. The BI member's teams also cover what the person views as someone's delegate (`delegated`). Anyone
 * else (admins, editors, authors, unknown users) has no client identity: null.
 */
export async function embedIdentityForUser(
  db: Executor,
  userId: string,
  /** The person's active delegations, when the caller has read them already. */
  delegations?: ActiveDelegation[],
): Promise<EmbedIdentity | null> {
  const delegated = (delegations ?? (await activeDelegations(db, userId))).flatMap((d) => d.workbooks);
  const client = rows<PersonRow & { c_id: number }>(
    await db.execute(sql`
      select c.c_id, c.email, c.first_name, c.last_name, c.privilege, array[c.client_id] as client_ids, ${BI_KIND("c")},
        (select json_agg(json_build_object('id', w.id, 'workbookName', w.workbook_name, 'teamName', w.team_name) order by w.id)
           from client_workbooks cw join workbooks w on w.id = cw.workbook_id
          where cw.c_id = c.c_id) as workbooks
      from clients c where c.user_id = ${userId}`),
  )[0];
  if (client) {
    const identity = build(client, "client_id", delegated)!;
    const household = await householdClientIds(db, client.c_id);
    if (household.length > 0) {
      identity.user.userAttributes = rowSecurity(identity.clientIds[0]!, household);
      identity.clientIds = household;
    }
    return identity;
  }

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
  if (employee) return build(employee, "client_ids", delegated);
  return delegateIdentity(db, userId, delegated);
}

/** Someone whose only access is as others' delegate (role `delegate`): a viewer with nothing of their own. */
async function delegateIdentity(
  db: Executor,
  userId: string,
  delegated: IdentityWorkbook[],
): Promise<EmbedIdentity | null> {
  const person = rows<{ email: string; name: string; bi_user_kind: string | null }>(
    await db.execute(sql`
      select u.email, u.name, (select b.user_kind from bi_members b where b.email = lower(u.email)) as bi_user_kind
        from users u where u.id = ${userId} and u.role = 'delegate'`),
  )[0];
  if (!person) return null;
  const [firstName = person.name, ...rest] = person.name.split(" ");
  return {
    user: {
      email: person.email,
      firstName,
      lastName: rest.join(" "),
      privilege: "View",
      teams: teamsOf(delegated),
      userAttributes: rowSecurity("", []),
      managedInSigma: managedInSigma(person.bi_user_kind),
    },
    workbooks: [],
    clientIds: [],
  };
}

/**
 * What a delegate may see of one client (decision 020): the delegate's own identity (their email, account
 * type View, their member's teams) with the row-security attributes of that client in `client_ids` — never
 * `client_id`, so neither Sigma nor the built-in server takes the delegate for the client — and the workbooks
 * the delegation shares. Null when no delegation of that client counts now.
 */
async function delegateViewOf(db: Executor, userId: string, cId: number): Promise<EmbedIdentity | null> {
  // One read of the delegations: the viewed client's, and all of them for the member's teams.
  const delegations = await activeDelegations(db, userId);
  const delegation = delegations.find((d) => d.cId === cId);
  if (!delegation) return null;
  const own = await embedIdentityForUser(db, userId, delegations);
  if (!own) return null;
  return {
    user: {
      ...own.user,
      privilege: "View",
      userAttributes: rowSecurity("", [delegation.clientId]),
    },
    workbooks: delegation.workbooks,
    clientIds: [delegation.clientId],
    delegation,
    ...(delegation.expiresAt && { expiresAt: delegation.expiresAt }),
  };
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
 * What the caller may view. Without `cId`, their own (as ever); with one, their own when it is their own
 * client record, else what an active delegation of that client shares, else null (the routes answer 404, so
 * ids cannot be probed). Admins may open any workbook of the catalogue, but carry no client attribute, so
 * row-level security in the BI service shows them no client's rows (deny by default); they view no one else.
 * Editors and authors have no client data (docs/DEVIATIONS.md).
 */
export async function viewingIdentity(
  db: Executor,
  principal: Viewer,
  cId?: number,
): Promise<EmbedIdentity | null> {
  if (cId !== undefined) {
    if (principal.role === "admin") return null;
    const self = rows<{ c_id: number }>(
      await db.execute(sql`select c_id from clients where user_id = ${principal.userId} and c_id = ${cId}`),
    );
    return self.length > 0
      ? embedIdentityForUser(db, principal.userId)
      : delegateViewOf(db, principal.userId, cId);
  }
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
      userAttributes: rowSecurity("", []),
      managedInSigma: managedInSigma(linked?.user_kind),
      linked: linked !== undefined,
    },
    workbooks: catalogue,
    clientIds: [],
  };
}

/** One entry of `GET /api/me/clients`. */
export interface ViewableClient {
  cId: number | null;
  name: string;
  self: boolean;
  expiresAt: Date | null;
  workbooks: IdentityWorkbook[];
}

/**
 * Whom the person may view: themselves first (a client's own record, or an employee's clients together),
 * then every client whose delegation of them counts now, by name. Admins view no one through this list.
 */
export async function viewableClients(db: Executor, principal: Viewer): Promise<ViewableClient[]> {
  if (principal.role === "admin") return [];
  const found: ViewableClient[] = [];
  const delegations = await activeDelegations(db, principal.userId);
  const own = await embedIdentityForUser(db, principal.userId, delegations);
  const record = rows<{ c_id: number }>(
    await db.execute(sql`select c_id from clients where user_id = ${principal.userId}`),
  )[0];
  const employee = rows<unknown>(
    await db.execute(sql`select 1 from employees where user_id = ${principal.userId}`),
  );
  if (own && (record || employee.length > 0)) {
    found.push({
      cId: record?.c_id ?? null,
      name: `${own.user.firstName} ${own.user.lastName}`.trim(),
      self: true,
      expiresAt: null,
      workbooks: own.workbooks,
    });
  }
  for (const delegation of delegations) {
    if (delegation.cId === record?.c_id) continue;
    found.push({
      cId: delegation.cId,
      name: delegation.clientName,
      self: false,
      expiresAt: delegation.expiresAt,
      workbooks: delegation.workbooks,
    });
  }
  return found;
}
