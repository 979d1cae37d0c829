import { PASSWORD_POLICY } from "../../accounts/accounts.ts";
import { passwordProblem, type PasswordOwner } from "../../accounts/password.ts";
import type { AppConfig } from "../../config.ts";
import { authError, bodyOf, signedInPerson, type Concern, type HookContext } from "./context.ts";

/** Better Auth paths whose request bodies carry a new password, and the field that holds it. */
const NEW_PASSWORD_PATHS: Record<string, string> = {
  "/sign-up/email": "password",
  "/reset-password": "newPassword",
  "/change-password": "newPassword",
};

export function signUpDomainError(config: AppConfig, email: string): string | undefined {
  if (config.signUpDomains.length === 0) {
    return "Self sign-up is turned off. Ask the firm to create your account.";
  }
  const domain = email.split("@").pop()?.toLowerCase() ?? "";
  if (!config.signUpDomains.includes(domain)) {
    return `Self sign-up is open only to email addresses at ${config.signUpDomains.join(", ")}.`;
  }
  return undefined;
}

/** Whose new password it is: the one signing up, the owner of the reset token, or the signed-in person. */
async function ownerOf(ctx: HookContext): Promise<PasswordOwner> {
  const body = bodyOf(ctx);
  if (ctx.path === "/sign-up/email") {
    return { email: String(body.email ?? ""), name: String(body.name ?? "") };
  }
  if (ctx.path === "/reset-password") {
    const token = typeof body.token === "string" ? body.token : ctx.query?.token;
    if (typeof token !== "string") return {};
    const verification = await ctx.context.internalAdapter.findVerificationValue(`reset-password:${token}`);
    const user = verification && (await ctx.context.internalAdapter.findUserById(verification.value));
    return user ? { email: user.email, name: user.name } : {};
  }
  const person = await signedInPerson(ctx);
  return person ? { email: person.email } : {};
}

/**
 * The accounts module's password policy on Better Auth's own paths (self sign-up, reset, change), and the
 * self sign-up domain rule. The portal's other account paths call the accounts module directly.
 */
export function policyConcern(config: AppConfig): Concern {
  return {
    before: [
      {
        paths: (path) => path === "/sign-up/email",
        run: async (ctx) => {
          const error = signUpDomainError(config, String(bodyOf(ctx).email ?? ""));
          if (error) throw authError("FORBIDDEN", "SIGN_UP_NOT_ALLOWED", error);
        },
      },
      {
        paths: (path) => path in NEW_PASSWORD_PATHS,
        run: async (ctx) => {
          const password = bodyOf(ctx)[NEW_PASSWORD_PATHS[ctx.path]!];
          if (typeof password !== "string") return;
          const problem = passwordProblem(password, await ownerOf(ctx));
          if (problem) throw authError("BAD_REQUEST", PASSWORD_POLICY, problem);
        },
      },
    ],
  };
}
