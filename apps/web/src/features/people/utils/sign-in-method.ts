import { zodResolver } from "@hookform/resolvers/zod";
import type { FieldValues, Resolver } from "react-hook-form";
import type { z } from "zod";

/** How a new client or employee gets their password (D55): an emailed invitation (the default), or from the admin. */
export type TSignInMethod = "invite" | "password";

/**
 * Add Client / Add Employee's resolver: the spec's form schema (with the password) for "Set a password", and
 * the same without the password for "Send an invitation". The choice itself is kept beside the checked values.
 */
export function signInMethodResolver<TInput extends FieldValues, TValues extends FieldValues>(
  withPassword: z.ZodType<TValues, TInput>,
  invitation: z.ZodType<Omit<TValues, "password">, Omit<TInput, "password">>,
): Resolver<TInput & { signInMethod: TSignInMethod }, unknown, TValues & { signInMethod: TSignInMethod }> {
  const password = zodResolver(withPassword as never) as unknown as Resolver<FieldValues>;
  const invite = zodResolver(invitation as never) as unknown as Resolver<FieldValues>;
  return async ({ signInMethod, ...values }, context, options) => {
    const fields = signInMethod === "invite" ? (({ password: _password, ...rest }) => rest)(values) : values;
    const resolved = await (signInMethod === "invite" ? invite : password)(fields, context, options as never);
    if (Object.keys(resolved.errors).length > 0) return { values: {}, errors: resolved.errors } as never;
    return { values: { ...resolved.values, signInMethod }, errors: {} } as never;
  };
}
