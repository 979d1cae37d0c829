import {
  MFA_ENROLLMENT_REQUIRED,
  MFA_ENROLLMENT_REQUIRED_MESSAGE,
  requiresTwoFactor,
  type TRole,
} from "@portal/contracts";
import { recordAudit } from "../../audit/audit.ts";
import type { Database } from "../../db/client.ts";
import { mustEnrol } from "../enrolment.ts";
import { claimTotpCode, TOTP_CODE_USED, TOTP_CODE_USED_MESSAGE } from "../totp.ts";
import {
  alreadyAudited,
  authError,
  bodyOf,
  onPath,
  outcomeOf,
  pendingPerson,
  signedInPerson,
  sourceOf,
  stateOf,
  type Concern,
} from "./context.ts";

/**
 * Better Auth paths someone who must still set up two-step verification may use (decision 006): the session,
 * sign-out, the two-factor endpoints themselves, and what works without a session. Everything else that
 * carries such a person's session answers 403 MFA_ENROLLMENT_REQUIRED (a JWT from /token, profile changes...).
 */
const MFA_ENROLMENT_AUTH_PATHS = [
  "/get-session",
  "/sign-out",
  "/two-factor/",
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
];

export interface TwoStepDeps {
  db: Database;
  mfaRequiredRoles: TRole[];
}

/**
 * The two-step verification gate (decision 006): enrolment first for the roles that require it, no
 * turning it off for them, no trusted devices, and each TOTP code once (ASVS 5.0 6.5.1).
 */
export function twoStepConcern({ db, mfaRequiredRoles }: TwoStepDeps): Concern {
  return {
    before: [
      {
        paths: (path) => !MFA_ENROLMENT_AUTH_PATHS.some((p) => path.startsWith(p)),
        run: async (ctx) => {
          const person = await signedInPerson(ctx);
          if (person && mustEnrol(person, { mfaRequiredRoles })) {
            throw authError("FORBIDDEN", MFA_ENROLLMENT_REQUIRED, MFA_ENROLLMENT_REQUIRED_MESSAGE);
          }
        },
      },
      {
        paths: onPath("/two-factor/disable"),
        run: async (ctx) => {
          const person = await signedInPerson(ctx);
          if (!person || !requiresTwoFactor(person.role, mfaRequiredRoles)) return;
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
