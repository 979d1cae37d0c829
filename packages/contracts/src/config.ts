import * as z from "zod/mini";

export const SOCIAL_PROVIDER_IDS = ["google", "microsoft", "github", "apple", "oidc"] as const;
export const ZSocialProviderIdSchema = z.enum(SOCIAL_PROVIDER_IDS);
export type TSocialProviderId = z.infer<typeof ZSocialProviderIdSchema>;

/** GET /api/config — the public, non-secret settings the sign-in screens need (zod/mini: see auth.ts). */
export const ZPublicConfigSchema = z.object({
  /** Self sign-up (Create Account) is open only when allowed e-mail domains are configured. */
  signUpEnabled: z.boolean(),
  /** The e-mail domains self sign-up accepts (shown in the hint under the form). */
  signUpDomains: z.array(z.string()),
  socialProviders: z.array(z.object({ id: ZSocialProviderIdSchema, name: z.string() })),
  passwordMinLength: z.int(),
  passwordMaxLength: z.int(),
  /**
   * Roles that must set up two-step verification before using the portal: the firm's policy (/admin/settings),
   * or MFA_REQUIRED_ROLES until an admin saves it.
   */
  mfaRequiredRoles: z.array(z.string()),
  /** Whether a six-digit code by email may be the second step (the firm's policy, issue 24). */
  emailCodes: z.boolean(),
});
export type TPublicConfig = z.infer<typeof ZPublicConfigSchema>;
