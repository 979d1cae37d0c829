import type { TDelegate, ZDelegateInviteRequestSchema } from "@portal/contracts";
import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { createSignInAccount } from "../accounts/accounts.ts";
import { auditActor, type Actor } from "../audit/actor.ts";
import { recordAudit } from "../audit/audit.ts";
import type { Database, Transaction } from "../db/client.ts";
import { pgCode } from "../db/rows.ts";
import { delegations, users } from "../db/schema.ts";
import { issueInvitation, type IssuedInvitation } from "../invitations/invitations.ts";
import { AppError, forbidden } from "../lib/errors.ts";
import { splitName } from "./delegation-record.ts";
import {
  checkShareable,
  clientById,
  findDelegate,
  storeShared,
  type Asker,
  type DelegationOwner,
} from "./delegations.ts";
import { clientsMayInvite } from "./policies.ts";

/** A checked invitation: the address in lower case, a trimmed name, distinct workbook ids, a future end. */
export type DelegateInvite = z.output<typeof ZDelegateInviteRequestSchema>;

export interface InvitedDelegate {
  delegate: TDelegate;
  /** The link to mail once the transaction has committed. */
  invitation: IssuedInvitation;
}

/**
 * The sign-in account the delegation is for. An address without one gets an account with the role
 * `delegate` and no password (they choose one when accepting). An address that has one keeps it as it is,
 * whatever its role or state: inviting never changes anyone's role, password or ban. So the client learns
 * nothing about the address (same answer either way); a firm staff account or a disabled one is refused
 * only when the link is opened, which only the address's owner sees (`invitations/links.ts`).
 */
async function delegateAccount(tx: Transaction, email: string, name: string): Promise<string> {
  const [existing] = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email))
    .for("update");
  if (existing) return existing.id;
  return createSignInAccount(tx, { email, name, role: "delegate", passwordHash: null });
}

/** The most delegations one client can hold (invited or active). */
export const MAX_DELEGATES_PER_CLIENT = 20;

const alreadyInvited = (asker: Asker, client: DelegationOwner, email: string) =>
  new AppError(
    409,
    `${email} is already ${asker === "client" ? "one of your delegates" : `one of ${client.name}'s delegates`}. To send a new invitation, remove them and invite them again.`,
    "CONFLICT",
  );

/**
 * Invites a delegate for the client in one transaction: the sign-in account (made or reused), the delegation
 * and what it shares, the invitation link (`kind` delegate, `person_id` = the delegation) and the audit row.
 * A client may invite only while the firm lets clients invite; an admin always may. Nothing is shared until
 * the delegate accepts.
 */
export async function inviteDelegate(
  db: Database,
  cId: number,
  input: DelegateInvite,
  asker: Asker,
  actor: Actor,
  lifetimeMs: number,
): Promise<InvitedDelegate> {
  const attempt = () =>
    db.transaction(async (tx) => {
      if (asker === "client" && !(await clientsMayInvite(tx))) {
        throw forbidden(
          "Your firm has turned off inviting people to view your workbooks. Your advisor can invite someone for you.",
        );
      }
      const client = await clientById(tx, cId, true);
      const shared = input.workbookIds ?? null;
      await checkShareable(tx, client, shared, asker);
      const userId = await delegateAccount(tx, input.email, input.name);
      if (userId === client.userId) {
        throw new AppError(
          400,
          asker === "client"
            ? "You cannot invite yourself. Enter the email address of the person you want to share your workbooks with."
            : `${client.name} cannot be their own delegate.`,
          "INVALID_INPUT",
        );
      }
      const [taken] = await tx
        .select({ id: delegations.id })
        .from(delegations)
        .where(and(eq(delegations.cId, cId), eq(delegations.userId, userId)));
      if (taken) throw alreadyInvited(asker, client, input.email);
      // A cap on the people one client can invite keeps an account from mailing strangers without end.
      const [held] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(delegations)
        .where(eq(delegations.cId, cId));
      if ((held?.n ?? 0) >= MAX_DELEGATES_PER_CLIENT) {
        throw new AppError(
          409,
          `${asker === "client" ? "You have" : `${client.name} has`} given ${MAX_DELEGATES_PER_CLIENT} people access already, the most there can be. Remove someone before inviting another.`,
          "CONFLICT",
        );
      }
      const [created] = await tx
        .insert(delegations)
        .values({
          cId,
          userId,
          email: input.email,
          name: input.name,
          expiresAt: input.expiresAt ?? null,
          createdByUserId: actor.userId,
        })
        .returning({ id: delegations.id });
      const delegationId = created!.id;
      await storeShared(tx, delegationId, shared);
      const invitation = await issueInvitation(
        tx,
        {
          kind: "delegate",
          personId: delegationId,
          userId,
          email: input.email,
          ...splitName(input.name),
          client: { cId, name: client.name },
        },
        lifetimeMs,
        actor,
      );
      await recordAudit(tx, {
        action: "delegate.invited",
        outcome: "success",
        targetType: "client",
        targetId: String(cId),
        details: {
          delegationId,
          email: input.email,
          name: input.name,
          workbookIds: shared ?? "all",
          expiresAt: input.expiresAt?.toISOString() ?? null,
        },
        ...auditActor(actor),
      });
      return { delegate: await findDelegate(tx, cId, delegationId), invitation };
    });
  try {
    return await attempt();
  } catch (error) {
    // Two invitations of one new address at once (two clients): the second transaction's account insert meets
    // the first's. Tried once more, it finds that account; a second clash is this client's own (409).
    if (pgCode(error) !== "23505") throw error;
  }
  try {
    return await attempt();
  } catch (error) {
    if (pgCode(error) === "23505") throw alreadyInvited(asker, await clientById(db, cId), input.email);
    throw error;
  }
}
