import { z } from "zod";
import { requiredText, storableText } from "./fields.ts";
import { primaryColourProblem } from "./colour-contrast.ts";

/** Full-zod twin of `ZBrandingSchema` for the API's serialiser (the back office and the API read this one). */
export const ZBrandingResponseSchema = z.object({
  firmName: z.string(),
  primaryColour: z.string(),
  supportEmail: z.string(),
  logoUrl: z.string().nullable(),
});
export type TBrandingResponse = z.infer<typeof ZBrandingResponseSchema>;

/** `PUT /api/admin/settings`: the firm's name, primary colour and support email (the logo has its own route). */
export const ZBrandingUpdateRequestSchema = z.strictObject(
  {
    firmName: requiredText(100, "Firm name"),
    primaryColour: z
      .string({ error: "Primary colour must be text." })
      .check(storableText("Primary colour"))
      .trim()
      .superRefine((value, ctx) => {
        const problem = primaryColourProblem(value);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      })
      .transform((value) => value.toLowerCase()),
    supportEmail: z
      .string({ error: "Support email must be text." })
      .check(storableText("Support email"))
      .trim()
      .max(254, "Support email must be at most 254 characters.")
      .pipe(z.email("Enter a valid support email address.")),
  },
  { error: "The request body must be a JSON object with firmName, primaryColour and supportEmail." },
);
export type TBrandingUpdateRequest = z.input<typeof ZBrandingUpdateRequestSchema>;
