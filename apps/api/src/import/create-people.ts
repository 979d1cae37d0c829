import type { TClient, TEmployee, TImportKind } from "@portal/contracts";
import { sql } from "drizzle-orm";
import { createSignInAccount } from "../accounts/accounts.ts";
import { recordAudits, type AuditEvent } from "../audit/audit.ts";
import { queueMemberUpsertsInBulk } from "../admin/people.ts";
import { auditActor, rows as rowsOf, type Actor } from "../admin/shared.ts";
import type { Transaction } from "../db/client.ts";
import { accounts, clients, clientWorkbooks, employeeClients, employees, users } from "../db/schema.ts";
import { issueInvitation, type IssuedInvitation } from "../invitations/invitations.ts";
import type { ClientInput, EmployeeInput, Lookups } from "./validate.ts";

/** `passwordHash` null: the person is invited to choose a password (D55), as Add Client's `invite: true`. */
export type NewPerson =
  | { kind: "client"; line: number; input: ClientInput; passwordHash: string | null }
  | { kind: "employee"; line: number; input: EmployeeInput; passwordHash: string | null };

/**
 * Creates a batch of people inside the caller's transaction exactly as Add Client / Add Employee create one
 * (`admin/clients.ts`, `admin/employees.ts`): a sign-in account with the Argon2id hash, the record, its
 * assignments, the person's state queued for the BI service through the outbox, and a created audit row
 * each with the same `after`; only the statements are shared by the batch (multi-row inserts). An email that
 * belonged to a deleted person gets the same fresh start as on Add Client (`createSignInAccount`).
 */
export async function createPeople(
  tx: Transaction,
  kind: TImportKind,
  people: NewPerson[],
  lookups: Lookups,
  actor: Actor,
  jobId: string,
  /** INVITE_LIFETIME_HOURS in milliseconds, for the people without a password. */
  inviteLifetimeMs?: number,
): Promise<IssuedInvitation[]> {
  const issued: IssuedInvitation[] = [];
  if (people.length === 0) return issued;
  /** As Add Client / Add Employee: the link is made after the record, and named in its own audit row. */
  const invite = async (p: NewPerson, personId: number, userId: string) => {
    if (p.passwordHash !== null) return undefined;
    if (inviteLifetimeMs === undefined)
      throw new Error("An invitation needs its lifetime (INVITE_LIFETIME_HOURS).");
    const invitation = await issueInvitation(
      tx,
      {
        kind,
        personId,
        userId,
        firstName: p.input.firstName,
        lastName: p.input.lastName,
        email: p.input.email,
      },
      inviteLifetimeMs,
      actor,
    );
    issued.push(invitation);
    return invitation;
  };
  const invitedEvent = (p: NewPerson, personId: number, invitation: IssuedInvitation): AuditEvent => ({
    action: "invitation.sent",
    outcome: "success",
    targetType: kind,
    targetId: String(personId),
    after: invitation.state,
    details: { email: p.input.email, importJobId: jobId, line: p.line },
    ...auditActor(actor),
  });
  const role = kind;
  const name = (p: NewPerson) => `${p.input.firstName} ${p.input.lastName}`;
  const userIds = new Map<number, string>();
  const fresh = people.filter((p) => !lookups.accounts.get(p.input.email)?.reusable);
  for (const p of people) {
    if (fresh.includes(p)) userIds.set(p.line, crypto.randomUUID());
    else {
      const id = await createSignInAccount(tx, {
        email: p.input.email,
        name: name(p),
        role,
        passwordHash: p.passwordHash,
      });
      userIds.set(p.line, id);
    }
  }
  if (fresh.length > 0) {
    await tx.insert(users).values(
      fresh.map((p) => ({
        id: userIds.get(p.line)!,
        name: name(p),
        email: p.input.email,
        emailVerified: true,
        role,
      })),
    );
    const withPassword = fresh.filter((p) => p.passwordHash !== null);
    if (withPassword.length > 0)
      await tx.insert(accounts).values(
        withPassword.map((p) => ({
          id: crypto.randomUUID(),
          userId: userIds.get(p.line)!,
          providerId: "credential",
          accountId: userIds.get(p.line)!,
          password: p.passwordHash!,
        })),
      );
  }

  const events: AuditEvent[] = [];
  const details = (p: NewPerson) => ({ importJobId: jobId, line: p.line });
  if (kind === "client") {
    const list = people as Extract<NewPerson, { kind: "client" }>[];
    const created = await tx
      .insert(clients)
      .values(
        list.map((p) => ({
          clientId: p.input.clientId,
          firstName: p.input.firstName,
          lastName: p.input.lastName,
          email: p.input.email,
          privilege: p.input.privilege,
          userId: userIds.get(p.line)!,
        })),
      )
      .returning({ cId: clients.cId, email: clients.email });
    const cIdOf = new Map(created.map((c) => [c.email, c.cId]));
    const assignments = list.flatMap((p) =>
      p.input.workbookIds.map((workbookId) => ({ cId: cIdOf.get(p.input.email)!, workbookId })),
    );
    if (assignments.length > 0) await tx.insert(clientWorkbooks).values(assignments);
    for (const p of list) {
      const cId = cIdOf.get(p.input.email)!;
      const invitation = await invite(p, cId, userIds.get(p.line)!);
      // Add Client's `after`: the list row as read before its outbox row is queued.
      const after: TClient = {
        c_id: cId,
        client_id: p.input.clientId,
        first_name: p.input.firstName,
        last_name: p.input.lastName,
        email: p.input.email,
        privilege: p.input.privilege,
        workbook_ids: [...p.input.workbookIds].sort((a, b) => a - b),
        employees: [],
        sync_status: "synced",
        sync_error: null,
        sync_waiting_since: null,
        two_factor_enabled: false,
        ...(invitation && { invitation: invitation.state }),
      };
      events.push({
        action: "client.created",
        outcome: "success",
        targetType: "client",
        targetId: String(cId),
        after,
        details: details(p),
        ...auditActor(actor),
      });
      if (invitation) events.push(invitedEvent(p, cId, invitation));
    }
  } else {
    const list = people as Extract<NewPerson, { kind: "employee" }>[];
    const created = await tx
      .insert(employees)
      .values(
        list.map((p) => ({
          employeeId: p.input.employeeId,
          firstName: p.input.firstName,
          lastName: p.input.lastName,
          email: p.input.email,
          privilege: p.input.privilege,
          userId: userIds.get(p.line)!,
        })),
      )
      .returning({ eId: employees.eId, email: employees.email });
    const eIdOf = new Map(created.map((e) => [e.email, e.eId]));
    const assignments = list.flatMap((p) =>
      p.input.clientIds.map((cId) => ({ eId: eIdOf.get(p.input.email)!, cId })),
    );
    if (assignments.length > 0) await tx.insert(employeeClients).values(assignments);
    const assigned = [...new Set(assignments.map((a) => a.cId))];
    const names = new Map(
      rowsOf<{ c_id: number; first_name: string; last_name: string }>(
        assigned.length === 0
          ? { rows: [] }
          : await tx.execute(
              sql`select c_id, first_name, last_name from clients where c_id = any(${sql.param(assigned)}::int[])`,
            ),
      ).map((c) => [c.c_id, c]),
    );
    for (const p of list) {
      const eId = eIdOf.get(p.input.email)!;
      const invitation = await invite(p, eId, userIds.get(p.line)!);
      const clientsOf = p.input.clientIds
        .map((cId) => names.get(cId)!)
        .sort(
          (a, b) =>
            a.last_name.localeCompare(b.last_name) ||
            a.first_name.localeCompare(b.first_name) ||
            a.c_id - b.c_id,
        );
      // Add Employee's `after`: read once the outbox row is queued.
      const after: TEmployee = {
        e_id: eId,
        employee_id: p.input.employeeId,
        first_name: p.input.firstName,
        last_name: p.input.lastName,
        email: p.input.email,
        privilege: p.input.privilege,
        clients: clientsOf,
        sync_status: "pending",
        sync_error: null,
        sync_waiting_since: null,
        two_factor_enabled: false,
        ...(invitation && { invitation: invitation.state }),
      };
      events.push({
        action: "employee.created",
        outcome: "success",
        targetType: "employee",
        targetId: String(eId),
        after,
        details: details(p),
        ...auditActor(actor),
      });
      if (invitation) events.push(invitedEvent(p, eId, invitation));
    }
  }
  await queueMemberUpsertsInBulk(
    tx,
    people.map((p) => userIds.get(p.line)!),
  );
  // Last: the audit chain's head stays locked until the transaction ends (audit/chain.ts).
  await recordAudits(tx, events);
  return issued;
}
