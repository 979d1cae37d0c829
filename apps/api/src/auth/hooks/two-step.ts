import {
  MFA_ENROLLMENT_REQUIRED,
  MFA_ENROLLMENT_REQUIRED_MESSAGE,
  requiresTwoFactor,
} from "@portal/contracts";
import { recordAudit } from "../../audit/audit.ts";
import type { Database } from "../../db/client.ts";
import type { EffectiveSignInPolicy } from "../../signin/policy.ts";
import {
  mustEnrol,
  needsPasskeySignIn,
  secondStepOf,
  PASSKEY_SIGN_IN_REQUIRED,
  PASSKEY_SIGN_IN_REQUIRED_MESSAGE,
} from "../enrolment.ts";
import { claimTotpCode, TOTP_CODE_USED, TOTP_CODE_USED_MESSAGE } from "../totp.ts";
import {
  alreadyAudited,
  authError,
  bodyOf,
  hasPasskey,
  onPath,
  outcomeOf,
  pendingPerson,
  signedInPerson,
  sourceOf,
  stateOf,
  type Concern,
} from "./context.ts";

/**
 * Better Auth paths open to every signed-in person whatever their second step: the session, sign-out, and what
 * works without a session (signing in again, with a password or a passkey, included).
 */
const ALWAYS_OPEN_AUTH_PATHS = [
  "/get-session",
  "/sign-out",
  "/sign-in/",
  "/sign-up/",
  "/request-password-reset",
  "/reset-password",
  "/verify-email",
  "/callback/",
  "/oauth2/callback/",
  "/jwks",
  "/ok",
  "/error",
  "/passkey/generate-authenticate-options",
  "/passkey/verify-authentication",
];

/**
 * What someone who must still set up two-step verification may use besides (decision 006, issue 24): the
 * two-factor endpoints and adding a passkey. Everything else that carries such a person's session answers 403
 * MFA_ENROLLMENT_REQUIRED (a JWT from /token, profile changes...).
 */
const ENROLMENT_AUTH_PATHS = [
  "/two-factor/",
  "/passkey/generate-register-options",
  "/passkey/verify-registration",
  "/passkey/list-user-passkeys",
];

const startsWithAny = (path: string, prefixes: readonly string[]) => prefixes.some((p) => path.startsWith(p));

export interface TwoStepDeps {
  db: Database;
  /** The firm's two-step policy as it applies now (signin/policy.ts). */
  policy: () => Promise<EffectiveSignInPolicy>;
}

/**
 * The two-step verification gate (decision 006): enrolment first for the roles that require it, no
 * turning it off for them, no trusted devices, and each TOTP code once (ASVS 5.0 6.5.1).
 */
export function twoStepConcern({ db, policy }: TwoStepDeps): Concern {
  return {
    before: [
      {
        paths: (path) => !startsWithAny(path, ALWAYS_OPEN_AUTH_PATHS),
        run: async (ctx) => {
          const person = await signedInPerson(ctx);
          if (!person || person.twoFactorEnabled) return;
          const { requiredRoles } = await policy();
          if (!requiresTwoFactor(person.role, requiredRoles)) return;
          const facts = { ...person, hasPasskey: await hasPasskey(db, person.userId) };
          // A password-only session of someone whose second step is a passkey changes nothing, enrolment
          // included (else the password alone could add a second step of its own).
          if (needsPasskeySignIn(facts, requiredRoles)) {
            throw authError("FORBIDDEN", PASSKEY_SIGN_IN_REQUIRED, PASSKEY_SIGN_IN_REQUIRED_MESSAGE);
          }
          if (!startsWithAny(ctx.path, ENROLMENT_AUTH_PATHS) && mustEnrol(facts, requiredRoles)) {
            throw authError("FORBIDDEN", MFA_ENROLLMENT_REQUIRED, MFA_ENROLLMENT_REQUIRED_MESSAGE);
          }
        },
      },
      {
        paths: onPath("/two-factor/disable"),
        run: async (ctx) => {
          const person = await signedInPerson(ctx);
          if (!person) return;
          const { requiredRoles } = await policy();
          if (!requiresTwoFactor(person.role, requiredRoles)) return;
          // A passkey is a second step too: with one, the authenticator app may go.
          if (await hasPasskey(db, person.userId)) return;
          await recordAudit(db, {
            action: "auth.mfa.disabled",
            outcome: "denied",
            actorUserId: person.userId,
            actorEmail: person.email,
            ...sourceOf(ctx),
          });
          throw alreadyAudited(
            authError(
              "FORBIDDEN",
              "MFA_REQUIRED_FOR_ROLE",
              "Your role requires two-step verification, so it cannot be turned off.",
            ),
          );
        },
      },
      {
        // "Trust this device" would let a later sign-in (also one after a password reset) skip the code.
        paths: (path) => path.startsWith("/two-factor/verify"),
        run: async (ctx) => {
          if (!bodyOf(ctx).trustDevice) return;
          throw authError(
            "BAD_REQUEST",
            "TRUST_DEVICE_NOT_OFFERED",
            "Trusted devices are not offered: every sign-in asks for a code.",
          );
        },
      },
      {
        // Each TOTP code works once: its time step is taken before Better Auth checks it.
        paths: onPath("/two-factor/verify-totp"),
        run: async (ctx) => {
          const code = bodyOf(ctx).code;
          const person = (await signedInPerson(ctx)) ?? (await pendingPerson(ctx));
          if (!person || typeof code !== "string") return;
          const claim = await claimTotpCode(ctx.context.secretConfig, db, person.userId, code);
          stateOf(ctx).claim = claim;
          if (claim.status !== "used") return;
          await recordAudit(db, {
            action: "auth.mfa.verify",
            outcome: "denied",
            actorUserId: person.userId,
            actorEmail: person.email,
            details: { method: "totp", status: 401, code: TOTP_CODE_USED },
            ...sourceOf(ctx),
          });
          throw alreadyAudited(authError("UNAUTHORIZED", TOTP_CODE_USED, TOTP_CODE_USED_MESSAGE));
        },
      },
    ],
    after: [
      {
        // The web app learns from the session where the person stands (contracts sign-in.ts `TSecondStep`).
        paths: onPath("/get-session"),
        run: async (ctx) => {
          const { ok, body } = outcomeOf(ctx);
          const user = body.user as
            { id?: string; role?: string | null; twoFactorEnabled?: boolean } | undefined;
          const session = body.session as { signInMethod?: string | null } | undefined;
          if (!ok || !user?.id || !session) return;
          const { requiredRoles } = await policy();
          const facts = {
            role: user.role,
            twoFactorEnabled: user.twoFactorEnabled,
            signInMethod: session.signInMethod,
            hasPasskey: await hasPasskey(db, user.id),
          };
          return ctx.json({ ...body, secondStep: secondStepOf(facts, requiredRoles) });
        },
      },
      {
        // A code Better Auth refused for another reason (an expired sign-in step, say) is given back.
        paths: onPath("/two-factor/verify-totp"),
        run: async (ctx) => {
          const claim = stateOf(ctx).claim;
          if (claim?.status === "claimed" && !outcomeOf(ctx).ok) await claim.release();
        },
      },
    ],
  };
}
