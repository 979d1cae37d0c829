import { z } from "zod";

/** Password policy (security baseline: at least 8, at most 128, no composition rules). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export const ROLES = ["admin", "client", "employee", "editor", "author"] as const;
export const ZRoleSchema = z.enum(ROLES);
export type TRole = z.infer<typeof ZRoleSchema>;

/** Roles a person may choose for themselves on Create Account. */
export const SELF_SIGN_UP_ROLES = ["editor", "author"] as const;
export const ZSelfSignUpRoleSchema = z.enum(SELF_SIGN_UP_ROLES);
export type TSelfSignUpRole = z.infer<typeof ZSelfSignUpRoleSchema>;

const email = z.email("Enter a valid email address.").max(254);

export const ZSignInSchema = z.object({
  email,
  password: z.string().min(1, "Password is required."),
});
export type TSignIn = z.infer<typeof ZSignInSchema>;

export const ZPasswordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`);

export const ZSignUpSchema = z.object({
  name: z.string().trim().min(1, "Full name is required.").max(200),
  email,
  password: ZPasswordSchema,
  role: ZSelfSignUpRoleSchema,
});
export type TSignUp = z.infer<typeof ZSignUpSchema>;

export const ZResetPasswordSchema = z
  .object({ password: ZPasswordSchema, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { message: "The passwords do not match.", path: ["confirm"] });
export type TResetPassword = z.infer<typeof ZResetPasswordSchema>;

/** POST /api/sigma/provision — body sent with the bearer token right after Create Account. */
export const ZProvisionRequestSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  email,
  role: ZSelfSignUpRoleSchema,
});
export type TProvisionRequest = z.infer<typeof ZProvisionRequestSchema>;

export const ZProvisionResponseSchema = z.object({
  status: z.literal("queued"),
  requestId: z.string(),
});
export type TProvisionResponse = z.infer<typeof ZProvisionResponseSchema>;
