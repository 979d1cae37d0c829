import type {
  TClient,
  ZAddClientRequestSchema,
  ZAddClientInviteRequestSchema,
  ZClientListQuerySchema,
  ZEditClientRequestSchema,
} from "@portal/contracts";
import { eq, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { recordAudit } from "../audit/audit.ts";
import { createSignInAccount, disableSignIn, newPasswordHash } from "../accounts/accounts.ts";
import type { Database, Executor } from "../db/client.ts";
import { clients, clientWorkbooks } from "../db/schema.ts";
import { AppError, notFound } from "../lib/errors.ts";
import {
  findWorkbooks,
  employeesOfClient,
  queueMemberUpsert,
  queueMemberUpserts,
  setDisplayName,
} from "./people.ts";
import {
  accountStateColumns,
  auditActor,
  prefixSearch,
  rethrowConflict,
  rows,
  type Actor,
} from "./shared.ts";
import { enqueueOutbox } from "../outbox/requests.ts";
import { invitationStateColumn, issueInvitation, type IssuedInvitation } from "../invitations/invitations.ts";

type ListQuery = z.output<typeof ZClientListQuerySchema>;
type AddInput = z.output<typeof ZAddClientRequestSchema>;
/** "Send an invitation": the same fields without a password (D55). */
type InviteInput = z.output<typeof ZAddClientInviteRequestSchema>;
type EditInput = z.output<typeof ZEditClientRequestSchema>;

const ORDER: Record<ListQuery["sort"], SQL> = {
  client_id: sql`c.client_id asc`,
  "-client_id": sql`c.client_id desc`,
  first_name: sql`c.first_name asc, c.last_name asc, c.c_id asc`,
  "-first_name": sql`c.first_name desc, c.last_name desc, c.c_id desc`,
  last_name: sql`c.last_name asc, c.first_name asc, c.c_id asc`,
  "-last_name": sql`c.last_name desc, c.first_name desc, c.c_id desc`,
  email: sql`c.email asc`,
  "-email": sql`c.email desc`,
  created: sql`c.created_at asc, c.c_id asc`,
  "-created": sql`c.created_at desc, c.c_id desc`,
};

/** One query for a page of clients in the spec's shape; related lists are aggregated per returned row. */
function selectClients(where: SQL, order: SQL, limit: number, offset: number, total: SQL) {
  return sql`
    select c.c_id, c.client_id, c.first_name, c.last_name, c.email, c.privilege,
      array(select cw.workbook_id from client_workbooks cw where cw.c_id = c.c_id order by cw.workbook_id) as workbook_ids,
      coalesce((select json_agg(json_build_object('first_name', e.first_name, 'last_name', e.last_name)
                                order by e.last_name, e.first_name, e.e_id)
                  from employee_clients ec join employees e on e.e_id = ec.e_id
                 where ec.c_id = c.c_id), '[]'::json) as employees,
      ${accountStateColumns(sql`c.user_id`)},
      ${invitationStateColumn("client", sql`c.c_id`, sql`c.user_id`)},
      ${total} as total
    from clients c
    where ${where}
    order by ${order}
    limit ${limit} offset ${offset}`;
}

type Row = TClient & { total: number };
// `invitation` is listed only while the person has not set a password (D55).
const strip = ({ total: _total, invitation, ...client }: Row): TClient =>
  invitation ? { ...client, invitation } : client;

/** The SQL of one page of the client list (exported so the benchmark can run it through the driver). */
export function clientListQuery(query: ListQuery) {
  const where = query.q
    ? prefixSearch([sql`c.client_id`, sql`c.first_name`, sql`c.last_name`, sql`c.email`], query.q)
    : sql`true`;
  const total = query.q
    ? sql`(select count(*) from clients c where ${where})::int`
    : sql`(select row_count from table_row_counts where table_name = 'clients')::int`;
  return { where, statement: selectClients(where, ORDER[query.sort], query.limit, query.offset, total) };
}

export async function listClients(db: Database, query: ListQuery) {
  const { where, statement } = clientListQuery(query);
  const list = rows<Row>(await db.execute(statement));
  const count =
    list[0]?.total ??
    rows<{ n: number }>(await db.execute(sql`select count(*)::int as n from clients c where ${where}`))[0]!.n;
  return { rows: list.map(strip), total: count };
}

export async function getClient(db: Executor, cId: number): Promise<TClient | undefined> {
  const [row] = rows<Row>(await db.execute(selectClients(sql`c.c_id = ${cId}`, sql`c.c_id`, 1, 0, sql`1`)));
  return row && strip(row);
}

async function assertClientIdFree(tx: Executor, clientId: string, exceptCId?: number) {
  const [clash] = await tx.select({ cId: clients.cId }).from(clients).where(eq(clients.clientId, clientId));
  if (clash && clash.cId !== exceptCId) {
    throw new AppError(409, `Client ID ${clientId} is already in use.`, "DUPLICATE_CLIENT_ID");
  }
}

/**
 * Registers a client: sign-in account (role client), client record and workbook assignments in one
 * transaction, so a failure anywhere leaves nothing behind. Teams are derived from the workbooks here,
 * never taken from the request.
 */
export async function addClient(
  db: Database,
  input: AddInput | InviteInput,
  actor: Actor,
  options: { inviteLifetimeMs?: number } = {},
): Promise<{ client: TClient; userId: string; invitation?: IssuedInvitation }> {
  // "Send an invitation" (D55): no password; a single-use link for the person to choose one.
  const invite = "invite" in input && input.invite === true;
  const passwordHash =
    "password" in input && typeof input.password === "string" && !invite
      ? await newPasswordHash(input.password, {
          email: input.email,
          name: `${input.firstName} ${input.lastName}`,
        })
      : null;
  if (!invite && passwordHash === null) throw new AppError(400, "All fields are required.", "INVALID_INPUT");
  try {
    const { cId, userId, invitation } = await db.transaction(async (tx) => {
      await assertClientIdFree(tx, input.clientId);
      const assigned = await findWorkbooks(tx, input.workbookIds);
      const userId = await createSignInAccount(tx, {
        email: input.email,
        name: `${input.firstName} ${input.lastName}`,
        role: "client",
        passwordHash,
      });
      const [created] = await tx
        .insert(clients)
        .values({
          clientId: input.clientId,
          firstName: input.firstName,
          lastName: input.lastName,
          email: input.email,
          privilege: input.privilege,
          userId,
        })
        .returning({ cId: clients.cId });
      if (assigned.length > 0) {
        await tx
          .insert(clientWorkbooks)
          .values(assigned.map((w) => ({ cId: created!.cId, workbookId: w.id })));
      }
      const invitation =
        invite && options.inviteLifetimeMs !== undefined
          ? await issueInvitation(
              tx,
              {
                kind: "client",
                personId: created!.cId,
                userId,
                firstName: input.firstName,
                lastName: input.lastName,
                email: input.email,
              },
              options.inviteLifetimeMs,
              actor,
            )
          : undefined;
      if (invite && !invitation) throw new Error("An invitation needs its lifetime (INVITE_LIFETIME_HOURS).");
      const after = await getClient(tx, created!.cId);
      await queueMemberUpsert(tx, userId);
      await recordAudit(tx, {
        action: "client.created",
        outcome: "success",
        targetType: "client",
        targetId: String(created!.cId),
        after,
        ...auditActor(actor),
      });
      if (invitation) {
        await recordAudit(tx, {
          action: "invitation.sent",
          outcome: "success",
          targetType: "client",
          targetId: String(created!.cId),
          after: invitation.state,
          details: { email: input.email },
          ...auditActor(actor),
        });
      }
      return { cId: created!.cId, userId, invitation };
    });
    return { client: (await getClient(db, cId))!, userId, ...(invitation && { invitation }) };
  } catch (error) {
    rethrowConflict(error, "A client with this Client ID or email already exists.");
  }
}

/** Edit Client changes the business id and names only (spec §5); privilege and workbooks stay. */
export async function editClient(db: Database, input: EditInput, actor: Actor): Promise<TClient> {
  try {
    await db.transaction(async (tx) => {
      const [current] = await tx.select().from(clients).where(eq(clients.cId, input.cId)).for("update");
      if (!current) throw notFound("Client not found.");
      if (current.privilege !== input.privilege) {
        throw new AppError(
          400,
          "A client's privilege cannot be changed on Edit Client.",
          "PRIVILEGE_READ_ONLY",
        );
      }
      await assertClientIdFree(tx, input.clientId, input.cId);
      const before = await getClient(tx, input.cId);
      await tx
        .update(clients)
        .set({ clientId: input.clientId, firstName: input.firstName, lastName: input.lastName })
        .where(eq(clients.cId, input.cId));
      await setDisplayName(tx, current.userId, input.firstName, input.lastName);
      const after = await getClient(tx, input.cId);
      await queueMemberUpsert(tx, current.userId);
      await recordAudit(tx, {
        action: "client.updated",
        outcome: "success",
        targetType: "client",
        targetId: String(input.cId),
        before,
        after,
        ...auditActor(actor),
      });
    });
    return (await getClient(db, input.cId))!;
  } catch (error) {
    rethrowConflict(error, `Client ID ${input.clientId} is already in use.`);
  }
}

/** Removes the client and its assignments, disables its sign-in and ends its sessions at once. */
export async function deleteClient(db: Database, cId: number, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await getClient(tx, cId);
    const employeesToUpdate = await employeesOfClient(tx, cId);
    const [removed] = await tx.delete(clients).where(eq(clients.cId, cId)).returning();
    if (!removed || !before) throw notFound("Client not found.");
    await disableSignIn(tx, removed.userId, "Client deleted");
    // The client's employees lose the teams they had only through this client.
    await queueMemberUpserts(tx, employeesToUpdate);
    await enqueueOutbox(tx, {
      userId: removed.userId,
      kind: "member.deactivate",
      payload: { email: removed.email },
    });
    await recordAudit(tx, {
      action: "client.deleted",
      outcome: "success",
      targetType: "client",
      targetId: String(cId),
      before,
      ...auditActor(actor),
    });
  });
}
