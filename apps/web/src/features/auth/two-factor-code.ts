// zod/mini: the second step of the sign-in is on the sign-in page (decision 004), so every message is spelled
// out here. The enrolment in the SPA checks its code with the same schema.
import * as z from "zod/mini";

/** A code from an authenticator app: six digits; spaces (some apps show "123 456") are dropped. */
const ZTotpCodeSchema = z.string().check(
  z.overwrite((value) => value.replace(/\s+/g, "")),
  z.regex(/^\d{6}$/, "Enter the 6 digits from your authenticator app."),
);

/** One of the backup codes shown at enrolment; the server decides whether it is valid and unused. */
const ZBackupCodeSchema = z.string().check(z.trim(), z.minLength(1, "Enter one of your backup codes."));

/** The forms that ask for one code (the sign-in step, the enrolment's Verify). */
export const ZTotpCodeFormSchema = z.object({ code: ZTotpCodeSchema });
export const ZBackupCodeFormSchema = z.object({ code: ZBackupCodeSchema });
export type TCodeForm = z.infer<typeof ZTotpCodeFormSchema>;

/**
 * How the code forms validate: a message stays until the next Verify, and focus stays where the person is
 * (the sign-in step's field has it from the start).
 */
export const CODE_FORM_OPTIONS = { reValidateMode: "onSubmit", shouldFocusError: false } as const;
