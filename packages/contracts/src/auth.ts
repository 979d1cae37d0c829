// zod/mini: these schemas are on the sign-in screens' first load, where the full zod API costs ~17 KB gzipped.
// Every message the sign-in screens can show is spelled out: zod/mini registers no locale for default messages.
import * as z from "zod/mini";
import { textProblem } from "./text.ts";

/** The shared text rules (`text.ts`) as a zod/mini check naming the field. */
export const storableTextCheck = (label: string) =>
  z.check<string>((ctx) => {
    const problem = textProblem(ctx.value, label);
    if (problem) ctx.issues.push({ code: "custom", message: problem, input: ctx.value });
  });

/** Password policy (security baseline: at least 8, at most 128, no composition rules). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export const ROLES = ["admin", "client", "employee", "editor", "author", "delegate"] as const;
export const ZRoleSchema = z.enum(ROLES);
export type TRole = z.infer<typeof ZRoleSchema>;

/** Roles a person may choose for themselves on Create Account. */
export const SELF_SIGN_UP_ROLES = ["editor", "author"] as const;
export const ZSelfSignUpRoleSchema = z.enum(SELF_SIGN_UP_ROLES);
export type TSelfSignUpRole = z.infer<typeof ZSelfSignUpRoleSchema>;

export const ZEmailSchema = z
  .email("Enter a valid email address.")
  .check(storableTextCheck("Email"), z.maxLength(254, "Email must be at most 254 characters."));

export const ZSignInSchema = z.object({
  email: ZEmailSchema,
  password: z.string().check(z.minLength(1, "Password is required.")),
});
export type TSignIn = z.infer<typeof ZSignInSchema>;

export const ZPasswordSchema = z
  .string()
  .check(
    storableTextCheck("Password"),
    z.minLength(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`),
    z.maxLength(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`),
  );

export const ZFullNameSchema = z
  .string()
  .check(
    storableTextCheck("Full name"),
    z.trim(),
    z.minLength(1, "Full name is required."),
    z.maxLength(200, "Full name must be at most 200 characters."),
  );

export const ZSignUpSchema = z.object({
  name: ZFullNameSchema,
  email: ZEmailSchema,
  password: ZPasswordSchema,
  role: ZSelfSignUpRoleSchema,
});
export type TSignUp = z.infer<typeof ZSignUpSchema>;

export const ZResetPasswordSchema = z
  .object({ password: ZPasswordSchema, confirm: z.string() })
  .check(
    z.refine((v) => v.password === v.confirm, { message: "The passwords do not match.", path: ["confirm"] }),
  );
export type TResetPassword = z.infer<typeof ZResetPasswordSchema>;

/** POST /api/sigma/provision — the answer; the request body is in `provision.ts`. */
export const ZProvisionResponseSchema = z.object({
  status: z.literal("queued"),
  requestId: z.string(),
});
export type TProvisionResponse = z.infer<typeof ZProvisionResponseSchema>;
