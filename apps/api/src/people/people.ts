import type { TPersonKind } from "@portal/contracts";
import { sql } from "drizzle-orm";
import {
  createSignInAccount,
  createSignInAccountsInBulk,
  disableSignIn,
  newPasswordHash,
} from "../accounts/accounts.ts";
import { auditActor, type Actor } from "../audit/actor.ts";
import { rethrowConflict, rows } from "../db/rows.ts";
import { recordAudit, recordAudits, type AuditEvent } from "../audit/audit.ts";
import type { Database, Executor, Transaction } from "../db/client.ts";
import { issueInvitation, type IssuedInvitation } from "../invitations/invitations.ts";
import { AppError } from "../lib/errors.ts";
import { enqueueOutbox } from "../outbox/requests.ts";
import { getPeople, getPerson } from "./lists.ts";
import { findPerson, personNotFound } from "./records.ts";
import { personTable, type PersonEdit, type PersonFields, type PersonKind } from "./kinds.ts";
import {
  queueMemberUpsert,
  queueMemberUpserts,
  queueMemberUpsertsInBulk,
  setDisplayName,
} from "./member-sync.ts";

/**
 * Clients and employees, written once (issue 13): Add, Edit and Delete of the back office and the CSV import's
 * batches. The lists are in `lists.ts`, finding one person in `records.ts`; what differs between the kinds
 * comes from their `PersonKind` (`kinds.ts`).
 */

async function assertBusinessIdFree(tx: Executor, kind: PersonKind, businessId: string, exceptId?: number) {
  const { table, id, businessId: column } = personTable(kind);
  const [clash] = rows<{ id: number }>(
    await tx.execute(sql`select ${id} as id from ${table} where ${column} = ${businessId}`),
  );
  if (clash && clash.id !== exceptId) {
    throw new AppError(409, `${kind.words.idLabel} ${businessId} is already in use.`, kind.duplicateIdCode);
  }
}

/** Inserts the records in one statement; answers each one's internal id by email. */
async function insertRecords(
  tx: Transaction,
  kind: PersonKind,
  people: (PersonFields & { userId: string })[],
): Promise<Map<string, number>> {
  const { table, id, businessId } = personTable(kind);
  const created = rows<{ id: number; email: string }>(
    await tx.execute(sql`
      insert into ${table} (${businessId}, first_name, last_name, email, privilege, user_id)
      values ${sql.join(
        people.map(
          (p) =>
            sql`(${p.businessId}, ${p.firstName}, ${p.lastName}, ${p.email}, ${p.privilege}::privilege, ${p.userId})`,
        ),
        sql`, `,
      )}
      returning ${id} as id, email`),
  );
  return new Map(created.map((c) => [c.email, c.id]));
}

/** "Send an invitation" (D55): the link is made after the record, and named in its own audit row. */
async function invite(
  tx: Transaction,
  kind: PersonKind,
  person: PersonFields & { personId: number; userId: string },
  lifetimeMs: number | undefined,
  actor: Actor,
) {
  if (lifetimeMs === undefined) throw new Error("An invitation needs its lifetime (INVITE_LIFETIME_HOURS).");
  return issueInvitation(
    tx,
    {
      kind: kind.kind,
      personId: person.personId,
      userId: person.userId,
      firstName: person.firstName,
      lastName: person.lastName,
      email: person.email,
    },
    lifetimeMs,
    actor,
  );
}

const invitedEvent = (
  kind: PersonKind,
  personId: number,
  email: string,
  invitation: IssuedInvitation,
  actor: Actor,
  details: Record<string, unknown> = {},
): AuditEvent => ({
  action: "invitation.sent",
  outcome: "success",
  targetType: kind.kind,
  targetId: String(personId),
  after: invitation.state,
  details: { email, ...details },
  ...auditActor(actor),
});

/**
 * Add Client / Add Employee: sign-in account, record and assignments in one transaction, so a failure
 * anywhere leaves nothing behind. A client's teams are derived from their workbooks here, never taken from
 * the request. Without a password the person is invited to choose one (`inviteLifetimeMs`, D55).
 */
export async function addPerson<R extends object>(
  db: Database,
  kind: PersonKind<TPersonKind, R>,
  fields: PersonFields,
  password: string | null,
  actor: Actor,
  options: { inviteLifetimeMs?: number } = {},
): Promise<{ person: R; userId: string; invitation?: IssuedInvitation }> {
  const name = `${fields.firstName} ${fields.lastName}`;
  const passwordHash =
    password === null ? null : await newPasswordHash(password, { email: fields.email, name });
  try {
    const { personId, userId, invitation } = await db.transaction(async (tx) => {
      await assertBusinessIdFree(tx, kind, fields.businessId);
      const assigned = await kind.checkAssigned(tx, fields.assigned);
      const userId = await createSignInAccount(tx, {
        email: fields.email,
        name,
        role: kind.kind,
        passwordHash,
      });
      const personId = (await insertRecords(tx, kind, [{ ...fields, userId }])).get(fields.email)!;
      await kind.assign(
        tx,
        assigned.map((id) => ({ personId, id })),
      );
      const invitation =
        password === null
          ? await invite(tx, kind, { ...fields, personId, userId }, options.inviteLifetimeMs, actor)
          : undefined;
      await queueMemberUpsert(tx, userId);
      const events: AuditEvent[] = [
        {
          action: `${kind.kind}.created`,
          outcome: "success",
          targetType: kind.kind,
          targetId: String(personId),
          after: await getPerson(tx, kind, personId),
          ...auditActor(actor),
        },
      ];
      if (invitation) events.push(invitedEvent(kind, personId, fields.email, invitation, actor));
      await recordAudits(tx, events);
      return { personId, userId, invitation };
    });
    return { person: (await getPerson(db, kind, personId))!, userId, ...(invitation && { invitation }) };
  } catch (error) {
    rethrowConflict(
      error,
      `${capitalise(kind.words.withArticle)} with this ${kind.words.idLabel} or email already exists.`,
    );
  }
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Edit Client / Edit Employee: what the kind lets change (`PersonKind.readEdit`, `checkEdit`). */
export async function editPerson<R extends object>(
  db: Database,
  kind: PersonKind<TPersonKind, R>,
  edit: PersonEdit,
  actor: Actor,
): Promise<R> {
  const { table, id, businessId } = personTable(kind);
  try {
    await db.transaction(async (tx) => {
      const current = await findPerson(tx, kind, edit.id, true);
      kind.checkEdit(current, edit);
      await assertBusinessIdFree(tx, kind, edit.businessId, edit.id);
      const assigned = edit.assigned && (await kind.checkAssigned(tx, edit.assigned));
      const before = await getPerson(tx, kind, edit.id);
      await tx.execute(sql`
        update ${table}
           set ${businessId} = ${edit.businessId}, first_name = ${edit.firstName}, last_name = ${edit.lastName},
               privilege = ${edit.privilege}::privilege
         where ${id} = ${edit.id}`);
      if (assigned) {
        await kind.assign(
          tx,
          assigned.map((assignedId) => ({ personId: edit.id, id: assignedId })),
          [edit.id],
        );
      }
      await setDisplayName(tx, current.userId, edit.firstName, edit.lastName);
      await queueMemberUpsert(tx, current.userId);
      await recordAudit(tx, {
        action: `${kind.kind}.updated`,
        outcome: "success",
        targetType: kind.kind,
        targetId: String(edit.id),
        before,
        after: await getPerson(tx, kind, edit.id),
        ...auditActor(actor),
      });
    });
    return (await getPerson(db, kind, edit.id))!;
  } catch (error) {
    rethrowConflict(error, `${kind.words.idLabel} ${edit.businessId} is already in use.`);
  }
}

/** Removes the person and their assignments, disables their sign-in and ends their sessions at once. */
export async function deletePerson(db: Database, kind: PersonKind, personId: number, actor: Actor) {
  const { table, id } = personTable(kind);
  await db.transaction(async (tx) => {
    const before = await getPerson(tx, kind, personId);
    const affected = await kind.affectedByDelete(tx, personId);
    const [removed] = rows<{ user_id: string; email: string }>(
      await tx.execute(sql`delete from ${table} where ${id} = ${personId} returning user_id, email`),
    );
    if (!removed || !before) throw personNotFound(kind);
    await disableSignIn(tx, removed.user_id, `${kind.words.noun} deleted`);
    await queueMemberUpserts(tx, affected);
    await enqueueOutbox(tx, {
      userId: removed.user_id,
      kind: "member.deactivate",
      payload: { email: removed.email },
    });
    await recordAudit(tx, {
      action: `${kind.kind}.deleted`,
      outcome: "success",
      targetType: kind.kind,
      targetId: String(personId),
      before,
      ...auditActor(actor),
    });
  });
}

/** One person of a CSV import: `passwordHash` null invites them to choose a password (D55). */
export interface NewPerson {
  line: number;
  fields: PersonFields;
  passwordHash: string | null;
}

/**
 * Creates a batch of people inside the caller's transaction exactly as Add Client / Add Employee create one:
 * a sign-in account with the Argon2id hash (an email that belonged to a deleted person, or a delegate's, is
 * taken over the same way, `createSignInAccount`), the record, its assignments, the person's state queued for
 * the BI service, an invitation where there is no password, and a created audit row each with Add's `after`;
 * only the statements are shared by the batch (multi-row inserts). `reusable`: emails whose account is taken
 * over (a deleted person's disabled one, or a delegate's). Answers the invitations to mail.
 */
export async function createPeople(
  tx: Transaction,
  kind: PersonKind,
  people: NewPerson[],
  reusable: (email: string) => boolean,
  actor: Actor,
  details: { importJobId: string },
  inviteLifetimeMs?: number,
): Promise<IssuedInvitation[]> {
  if (people.length === 0) return [];
  const name = (p: NewPerson) => `${p.fields.firstName} ${p.fields.lastName}`;
  const userIds = new Map<number, string>();
  const fresh: NewPerson[] = [];
  for (const p of people) {
    if (!reusable(p.fields.email)) {
      fresh.push(p);
      userIds.set(p.line, crypto.randomUUID());
    } else {
      const userId = await createSignInAccount(tx, {
        email: p.fields.email,
        name: name(p),
        role: kind.kind,
        passwordHash: p.passwordHash,
      });
      userIds.set(p.line, userId);
    }
  }
  await createSignInAccountsInBulk(
    tx,
    kind.kind,
    fresh.map((p) => ({
      id: userIds.get(p.line)!,
      name: name(p),
      email: p.fields.email,
      passwordHash: p.passwordHash,
    })),
  );
  const idOf = await insertRecords(
    tx,
    kind,
    people.map((p) => ({ ...p.fields, userId: userIds.get(p.line)! })),
  );
  await kind.assign(
    tx,
    people.flatMap((p) => p.fields.assigned.map((id) => ({ personId: idOf.get(p.fields.email)!, id }))),
  );
  const issued: IssuedInvitation[] = [];
  const invited = new Map<number, IssuedInvitation>();
  for (const p of people) {
    if (p.passwordHash !== null) continue;
    const personId = idOf.get(p.fields.email)!;
    const invitation = await invite(
      tx,
      kind,
      { ...p.fields, personId, userId: userIds.get(p.line)! },
      inviteLifetimeMs,
      actor,
    );
    issued.push(invitation);
    invited.set(p.line, invitation);
  }
  await queueMemberUpsertsInBulk(
    tx,
    people.map((p) => userIds.get(p.line)!),
  );
  const afters = new Map(
    (await getPeople(tx, kind as PersonKind<TPersonKind, Record<string, unknown>>, [...idOf.values()])).map(
      (after) => [after[kind.table.id] as number, after],
    ),
  );
  const events: AuditEvent[] = people.flatMap((p) => {
    const personId = idOf.get(p.fields.email)!;
    const where = { ...details, line: p.line };
    const created: AuditEvent = {
      action: `${kind.kind}.created`,
      outcome: "success",
      targetType: kind.kind,
      targetId: String(personId),
      after: afters.get(personId),
      details: where,
      ...auditActor(actor),
    };
    const invitation = invited.get(p.line);
    return invitation
      ? [created, invitedEvent(kind, personId, p.fields.email, invitation, actor, where)]
      : [created];
  });
  // Last: the audit chain's head stays locked until the transaction ends (audit/chain.ts).
  await recordAudits(tx, events);
  return issued;
}
