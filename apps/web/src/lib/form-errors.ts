import type { FieldErrors, FieldValues } from "react-hook-form";

import { ALL_FIELDS_REQUIRED } from "@portal/contracts";

import { AppRequestError, getErrorMessage } from "./errors";

export { ALL_FIELDS_REQUIRED };

export const FIELD_REQUIRED = "This field is required.";

/**
 * The message under one field. A blank required field is reported once for the whole form with the
 * spec's 'All fields are required.'; under the field itself a short note says which one it is.
 */
export function fieldError(message: string | undefined): string | undefined {
  if (!message) return undefined;
  return message === ALL_FIELDS_REQUIRED ? FIELD_REQUIRED : message;
}

/** True when any field of the form is blank but required (→ 'All fields are required.' under the form). */
export function hasMissingFields<T extends FieldValues>(errors: FieldErrors<T>): boolean {
  return Object.values(errors).some(
    (error) => typeof error === "object" && error !== null && error.message === ALL_FIELDS_REQUIRED,
  );
}

/**
 * A save (the form's mutation) as the form's footer shows it: running, done (the form stays disabled
 * while the screen moves on), and its failure: the server's message, else `failed`.
 */
export function saveState(
  mutation: { isPending: boolean; isSuccess: boolean; isError: boolean; error: unknown },
  failed: string,
) {
  return {
    pending: mutation.isPending,
    done: mutation.isSuccess,
    // A refused password is shown under its field instead.
    error:
      mutation.isError && !passwordPolicyError(mutation.error)
        ? getErrorMessage(mutation.error, failed)
        : undefined,
  };
}

/** The server's password policy refusal (accounts module), shown under the password field itself. */
export function passwordPolicyError(error: unknown): string | undefined {
  if (!(error instanceof AppRequestError) || error.code !== "PASSWORD_POLICY") return undefined;
  return error.message.replace(/^password: /, "");
}
