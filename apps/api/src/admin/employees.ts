import type {
  TEmployee,
  ZAddEmployeeRequestSchema,
  ZAddEmployeeInviteRequestSchema,
  ZEditEmployeeRequestSchema,
  ZEmployeeListQuerySchema,
} from "@portal/contracts";
import { eq, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { recordAudit } from "../audit/audit.ts";
import { createSignInAccount, disableSignIn, newPasswordHash } from "../accounts/accounts.ts";
import type { Database, Executor } from "../db/client.ts";
import { employeeClients, employees } from "../db/schema.ts";
import { AppError, notFound } from "../lib/errors.ts";
import { findClients, queueMemberUpsert, setDisplayName } from "./people.ts";
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

type ListQuery = z.output<typeof ZEmployeeListQuerySchema>;
type AddInput = z.output<typeof ZAddEmployeeRequestSchema>;
/** "Send an invitation": the same fields without a password (D55). */
type InviteInput = z.output<typeof ZAddEmployeeInviteRequestSchema>;
type EditInput = z.output<typeof ZEditEmployeeRequestSchema>;

const ORDER: Record<ListQuery["sort"], SQL> = {
  employee_id: sql`e.employee_id asc`,
  "-employee_id": sql`e.employee_id desc`,
  first_name: sql`e.first_name asc, e.last_name asc, e.e_id asc`,
  "-first_name": sql`e.first_name desc, e.last_name desc, e.e_id desc`,
  last_name: sql`e.last_name asc, e.first_name asc, e.e_id asc`,
  "-last_name": sql`e.last_name desc, e.first_name desc, e.e_id desc`,
  email: sql`e.email asc`,
  "-email": sql`e.email desc`,
  created: sql`e.created_at asc, e.e_id asc`,
  "-created": sql`e.created_at desc, e.e_id desc`,
};

function selectEmployees(where: SQL, order: SQL, limit: number, offset: number, total: SQL) {
  return sql`
    select e.e_id, e.employee_id, e.first_name, e.last_name, e.email, e.privilege,
      coalesce((select json_agg(json_build_object('c_id', c.c_id, 'first_name', c.first_name, 'last_name', c.last_name)
                                order by c.last_name, c.first_name, c.c_id)
                  from employee_clients ec join clients c on c.c_id = ec.c_id
                 where ec.e_id = e.e_id), '[]'::json) as clients,
      ${accountStateColumns(sql`e.user_id`)},
      ${invitationStateColumn("employee", sql`e.e_id`, sql`e.user_id`)},
      ${total} as total
    from employees e
    where ${where}
    order by ${order}
    limit ${limit} offset ${offset}`;
}

type Row = TEmployee & { total: number };
// `invitation` is listed only while the person has not set a password (D55).
const strip = ({ total: _total, invitation, ...employee }: Row): TEmployee =>
  invitation ? { ...employee, invitation } : employee;

export async function listEmployees(db: Database, query: ListQuery) {
  const where = query.q
    ? prefixSearch([sql`e.employee_id`, sql`e.first_name`, sql`e.last_name`, sql`e.email`], query.q)
    : sql`true`;
  const total = query.q
    ? sql`(select count(*) from employees e where ${where})::int`
    : sql`(select row_count from table_row_counts where table_name = 'employees')::int`;
  const list = rows<Row>(
    await db.execute(selectEmployees(where, ORDER[query.sort], query.limit, query.offset, total)),
  );
  const count =
    list[0]?.total ??
    rows<{ n: number }>(await db.execute(sql`select count(*)::int as n from employees e where ${where}`))[0]!
      .n;
  return { rows: list.map(strip), total: count };
}

export async function getEmployee(db: Executor, eId: number): Promise<TEmployee | undefined> {
  const [row] = rows<Row>(await db.execute(selectEmployees(sql`e.e_id = ${eId}`, sql`e.e_id`, 1, 0, sql`1`)));
  return row && strip(row);
}

async function assertEmployeeIdFree(tx: Executor, employeeId: string, exceptEId?: number) {
  const [clash] = await tx
    .select({ eId: employees.eId })
    .from(employees)
    .where(eq(employees.employeeId, employeeId));
  if (clash && clash.eId !== exceptEId) {
    throw new AppError(409, `Employee ID ${employeeId} is already in use.`, "DUPLICATE_EMPLOYEE_ID");
  }
}

/** Registers an employee: sign-in account, record and client assignments in one transaction. */
export async function addEmployee(
  db: Database,
  input: AddInput | InviteInput,
  actor: Actor,
  options: { inviteLifetimeMs?: number } = {},
): Promise<{ employee: TEmployee; userId: string; invitation?: IssuedInvitation }> {
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
    const { eId, userId, invitation } = await db.transaction(async (tx) => {
      await assertEmployeeIdFree(tx, input.employeeId);
      const assigned = await findClients(tx, input.clientIds);
      const userId = await createSignInAccount(tx, {
        email: input.email,
        name: `${input.firstName} ${input.lastName}`,
        role: "employee",
        passwordHash,
      });
      const [created] = await tx
        .insert(employees)
        .values({
          employeeId: input.employeeId,
          firstName: input.firstName,
          lastName: input.lastName,
          email: input.email,
          privilege: input.privilege,
          userId,
        })
        .returning({ eId: employees.eId });
      if (assigned.length > 0) {
        await tx.insert(employeeClients).values(assigned.map((c) => ({ eId: created!.eId, cId: c.cId })));
      }
      const invitation =
        invite && options.inviteLifetimeMs !== undefined
          ? await issueInvitation(
              tx,
              {
                kind: "employee",
                personId: created!.eId,
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
      await queueMemberUpsert(tx, userId);
      await recordAudit(tx, {
        action: "employee.created",
        outcome: "success",
        targetType: "employee",
        targetId: String(created!.eId),
        after: await getEmployee(tx, created!.eId),
        ...auditActor(actor),
      });
      if (invitation) {
        await recordAudit(tx, {
          action: "invitation.sent",
          outcome: "success",
          targetType: "employee",
          targetId: String(created!.eId),
          after: invitation.state,
          details: { email: input.email },
          ...auditActor(actor),
        });
      }
      return { eId: created!.eId, userId, invitation };
    });
    return { employee: (await getEmployee(db, eId))!, userId, ...(invitation && { invitation }) };
  } catch (error) {
    rethrowConflict(error, "An employee with this Employee ID or email already exists.");
  }
}

/** Edit Employee: business id, names, privilege and the assigned clients (email and password never). */
export async function editEmployee(db: Database, input: EditInput, actor: Actor): Promise<TEmployee> {
  try {
    await db.transaction(async (tx) => {
      const [current] = await tx.select().from(employees).where(eq(employees.eId, input.eId)).for("update");
      if (!current) throw notFound("Employee not found.");
      await assertEmployeeIdFree(tx, input.employeeId, input.eId);
      const assigned = await findClients(tx, input.clientIds);
      const before = await getEmployee(tx, input.eId);
      await tx
        .update(employees)
        .set({
          employeeId: input.employeeId,
          firstName: input.firstName,
          lastName: input.lastName,
          privilege: input.privilege,
        })
        .where(eq(employees.eId, input.eId));
      await tx.delete(employeeClients).where(eq(employeeClients.eId, input.eId));
      if (assigned.length > 0) {
        await tx.insert(employeeClients).values(assigned.map((c) => ({ eId: input.eId, cId: c.cId })));
      }
      await setDisplayName(tx, current.userId, input.firstName, input.lastName);
      await queueMemberUpsert(tx, current.userId);
      await recordAudit(tx, {
        action: "employee.updated",
        outcome: "success",
        targetType: "employee",
        targetId: String(input.eId),
        before,
        after: await getEmployee(tx, input.eId),
        ...auditActor(actor),
      });
    });
    return (await getEmployee(db, input.eId))!;
  } catch (error) {
    rethrowConflict(error, `Employee ID ${input.employeeId} is already in use.`);
  }
}

export async function deleteEmployee(db: Database, eId: number, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await getEmployee(tx, eId);
    const [removed] = await tx.delete(employees).where(eq(employees.eId, eId)).returning();
    if (!removed || !before) throw notFound("Employee not found.");
    await disableSignIn(tx, removed.userId, "Employee deleted");
    await enqueueOutbox(tx, {
      userId: removed.userId,
      kind: "member.deactivate",
      payload: { email: removed.email },
    });
    await recordAudit(tx, {
      action: "employee.deleted",
      outcome: "success",
      targetType: "employee",
      targetId: String(eId),
      before,
      ...auditActor(actor),
    });
  });
}
