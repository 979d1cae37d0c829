// The person's state for the BI service (Sigma's members and teams), queued through the outbox whenever
// something that decides it changes: a person added, edited or deleted, a workbook's team renamed.
import { and, eq, sql } from "drizzle-orm";
import { embedIdentitiesForUsers, embedIdentityForUser } from "../access/embed-identity.ts";
import type { Transaction } from "../db/client.ts";
import { users, workbooks } from "../db/schema.ts";
import { rows } from "../db/rows.ts";
import { enqueueOutbox, enqueueOutboxRows } from "../outbox/requests.ts";

export async function setDisplayName(tx: Transaction, userId: string, firstName: string, lastName: string) {
  await tx
    .update(users)
    .set({ name: `${firstName} ${lastName}` })
    .where(and(eq(users.id, userId)));
}

/**
 * The person's complete state for the BI service (names, privilege, the teams of every workbook they
 * may see), derived by the same code that decides their embeds; null for someone with no client identity.
 * `managedTeams` are the teams the portal owns (every workbook's team, plus `formerTeams` of a workbook
 * just renamed or deleted): a membership in one of those that is not in `teams` is removed.
 */
export async function memberUpsertPayload(
  tx: Transaction,
  userId: string,
  formerTeams: string[] = [],
  managedTeams?: string[],
) {
  const identity = await embedIdentityForUser(tx, userId);
  if (!identity) return null;
  return {
    email: identity.user.email,
    firstName: identity.user.firstName,
    lastName: identity.user.lastName,
    privilege: identity.user.privilege,
    teams: identity.user.teams,
    managedTeams: managedTeams ?? (await portalTeams(tx, formerTeams)),
  };
}

/** Every workbook's team, plus `formerTeams`: the teams whose memberships the portal manages. */
async function portalTeams(tx: Transaction, formerTeams: string[]): Promise<string[]> {
  const catalogue = await tx.selectDistinct({ teamName: workbooks.teamName }).from(workbooks);
  return [...new Set([...catalogue.map((w) => w.teamName), ...formerTeams])].sort();
}

/** Queues the person's complete current state for the BI service. */
export async function queueMemberUpsert(tx: Transaction, userId: string, formerTeams: string[] = []) {
  await queueMemberUpserts(tx, [userId], formerTeams);
}

/** Queues several people's complete current state; the team catalogue is read once for all of them. */
export async function queueMemberUpserts(tx: Transaction, userIds: string[], formerTeams: string[] = []) {
  if (userIds.length === 0) return;
  const managedTeams = await portalTeams(tx, formerTeams);
  for (const userId of userIds) {
    const payload = await memberUpsertPayload(tx, userId, formerTeams, managedTeams);
    if (payload) await enqueueOutbox(tx, { userId, kind: "member.upsert", payload });
  }
}

/**
 * `queueMemberUpserts` for a batch of new people (the CSV import): the same payloads, from the same identity
 * rules (`embedIdentitiesForUsers`), read in two queries and queued in one statement.
 */
export async function queueMemberUpsertsInBulk(tx: Transaction, userIds: string[]) {
  if (userIds.length === 0) return;
  const managedTeams = await portalTeams(tx, []);
  const identities = await embedIdentitiesForUsers(tx, userIds);
  await enqueueOutboxRows(
    tx,
    userIds.flatMap((userId) => {
      const identity = identities.get(userId);
      if (!identity) return [];
      return [
        {
          userId,
          kind: "member.upsert" as const,
          payload: {
            email: identity.user.email,
            firstName: identity.user.firstName,
            lastName: identity.user.lastName,
            privilege: identity.user.privilege,
            teams: identity.user.teams,
            managedTeams,
          },
        },
      ];
    }),
  );
}

/** The sign-in accounts of every client assigned the workbook and of those clients' employees. */
export async function peopleSeeingWorkbook(tx: Transaction, workbookId: number): Promise<string[]> {
  const found = rows<{ user_id: string }>(
    await tx.execute(sql`
      select c.user_id from client_workbooks cw join clients c on c.c_id = cw.c_id where cw.workbook_id = ${workbookId}
      union
      select e.user_id from client_workbooks cw
        join employee_clients ec on ec.c_id = cw.c_id join employees e on e.e_id = ec.e_id
       where cw.workbook_id = ${workbookId}`),
  );
  return found.map((r) => r.user_id);
}
