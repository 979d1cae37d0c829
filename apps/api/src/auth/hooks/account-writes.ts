import {
  type ApiErrorCode,
  ZDeletePasskeyRequestSchema,
  ZUpdatePasskeyRequestSchema,
  ZUpdateUserRequestSchema,
  ZVerifyPasskeyAuthenticationRequestSchema,
  ZVerifyPasskeyRegistrationRequestSchema,
} from "@portal/contracts";
import type { BetterAuthOptions } from "better-auth";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import { auditSourceFromHeaders, recordAudit } from "../../audit/audit.ts";
import type { Database, Transaction } from "../../db/client.ts";
import { users } from "../../db/schema.ts";
import { enqueueOutbox } from "../../outbox/requests.ts";
import { memberUpsertPayload } from "../../people/member-sync.ts";
import { isSelfSignUpRole } from "../sign-up-rules.ts";
import { authError, onPath, outcomeOf, signedInPerson, type Concern } from "./context.ts";

export interface AccountWritesDeps {
  db: Database;
}

/**
 * The contract of each Better Auth endpoint that writes to an account, and whether it needs a session: those
 * are checked only for a signed-in person, so that someone signed out is told 401 by Better Auth first
 * (authorization before validation).
 */
const CONTRACTS: Record<string, { schema: z.ZodType; signedIn: boolean }> = {
  "/update-user": { schema: ZUpdateUserRequestSchema, signedIn: true },
  "/passkey/update-passkey": { schema: ZUpdatePasskeyRequestSchema, signedIn: true },
  "/passkey/delete-passkey": { schema: ZDeletePasskeyRequestSchema, signedIn: true },
  "/passkey/verify-registration": { schema: ZVerifyPasskeyRegistrationRequestSchema, signedIn: true },
  "/passkey/verify-authentication": { schema: ZVerifyPasskeyAuthenticationRequestSchema, signedIn: false },
};

const UNREADABLE_REGISTRATION = "FAILED_TO_VERIFY_REGISTRATION" satisfies ApiErrorCode;

/** The first problem of a refused body, as its contract words it ("Name is required."). */
function problemOf(error: z.ZodError): string {
  return error.issues[0]?.message ?? "The request body is not valid.";
}

/**
 * Every account write Better Auth exposes obeys the portal's contracts (issue 24, build point 6; decision 021):
 * each body is checked against its `@portal/contracts` schema before Better Auth runs, a refusal is 400
 * INVALID_INPUT with the schema's message, and what Better Auth then reads is the parsed body (a name trimmed,
 * so "  Ann  " is saved as "Ann"). Better Auth's own checks stay behind these; the name change itself is
 * written by `profileNameWrite` (a database hook, below).
 */
export function accountWritesConcern(_deps: AccountWritesDeps): Concern {
  return {
    before: [
      {
        paths: (path) => path in CONTRACTS,
        run: async (ctx) => {
          const contract = CONTRACTS[ctx.path]!;
          if (contract.signedIn && !(await signedInPerson(ctx))) return;
          const parsed = contract.schema.safeParse(ctx.body);
          if (!parsed.success) throw authError("BAD_REQUEST", "INVALID_INPUT", problemOf(parsed.error));
          return { context: { body: parsed.data } };
        },
      },
    ],
    after: [
      {
        // The plugin answers 500 to an attestation its WebAuthn library cannot decode (it catches the library's
        // error and logs it): that is the sender's malformed answer, not a fault of the portal. A Response,
        // because Better Auth would send a thrown error with the endpoint's own status (500).
        paths: onPath("/passkey/verify-registration"),
        run: async (ctx) => {
          const { status, code } = outcomeOf(ctx);
          if (status !== 500 || code !== UNREADABLE_REGISTRATION) return;
          return Response.json(
            {
              code: UNREADABLE_REGISTRATION,
              message: "This passkey's answer could not be read, so it was not added. Try adding it again.",
            },
            { status: 400 },
          );
        },
      },
    ],
  };
}

type UserUpdateHook = NonNullable<
  NonNullable<NonNullable<NonNullable<BetterAuthOptions["databaseHooks"]>["user"]>["update"]>["before"]
>;

/**
 * The BI member of someone whose name changed, when what the portal sends for them changes with it: a
 * self-registered editor or author is their name and role; a client's, employee's or delegate's member is
 * their complete state (`memberBefore`: that state before the change), which takes its name from the account
 * only for a delegate (clients and employees are named by their records).
 */
async function queueRenamedMember(
  tx: Transaction,
  person: { userId: string; email: string; role: string | null },
  name: string,
  memberBefore: Awaited<ReturnType<typeof memberUpsertPayload>>,
) {
  if (isSelfSignUpRole(person.role)) {
    await enqueueOutbox(
      tx,
      {
        userId: person.userId,
        kind: "member.upsert",
        payload: { name, email: person.email, role: person.role },
      },
      { replacePending: true },
    );
    return;
  }
  const member = await memberUpsertPayload(tx, person.userId);
  if (member && JSON.stringify(member) !== JSON.stringify(memberBefore)) {
    await enqueueOutbox(tx, { userId: person.userId, kind: "member.upsert", payload: member });
  }
}

/**
 * Better Auth's `user.update` database hook for POST /update-user (the profile's name, already held to its
 * contract by `accountWritesConcern`): it runs after every before-hook let the request through, and writes the
 * name itself, with its `user.name_changed` audit row and the BI member's update, in one transaction. Better
 * Auth's own write is then skipped (false); it answers as usual. The same name again writes nothing at all.
 */
export function profileNameWrite(db: Database): UserUpdateHook {
  return async (data, ctx) => {
    if (ctx?.path !== "/update-user") return undefined;
    const userId = ctx.context.session?.user.id;
    const checked = ZUpdateUserRequestSchema.safeParse({ name: data.name });
    if (!checked.success) throw authError("BAD_REQUEST", "INVALID_INPUT", problemOf(checked.error));
    if (!userId) return false;
    const { name } = checked.data;
    await db.transaction(async (tx) => {
      const [current] = await tx
        .select({ name: users.name, email: users.email, role: users.role })
        .from(users)
        .where(eq(users.id, userId))
        .for("update");
      if (!current || current.name === name) return;
      const memberBefore = isSelfSignUpRole(current.role) ? null : await memberUpsertPayload(tx, userId);
      await tx.update(users).set({ name }).where(eq(users.id, userId));
      await queueRenamedMember(tx, { userId, email: current.email, role: current.role }, name, memberBefore);
      await recordAudit(tx, {
        action: "user.name_changed",
        outcome: "success",
        actorUserId: userId,
        actorEmail: current.email,
        targetType: "user",
        targetId: userId,
        before: { name: current.name },
        after: { name },
        ...auditSourceFromHeaders(ctx.headers ?? ctx.request?.headers),
      });
    });
    return false;
  };
}
