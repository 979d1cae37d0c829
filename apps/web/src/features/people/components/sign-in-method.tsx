import { useId } from "react";
import { useFormContext, useWatch } from "react-hook-form";

import { FormSection } from "@/components/admin/form-layout";
import { TextField } from "@/components/ui/field";
import { fieldError } from "@/lib/form-errors";

import type { TSignInMethod } from "../utils/sign-in-method";

/** How a new client or employee gets their password (DEVIATIONS D55): by an emailed link, or from the admin. */
export const SIGN_IN_METHODS: ReadonlyArray<{ value: TSignInMethod; label: string; hint: string }> = [
  {
    value: "invite",
    label: "Send an invitation",
    hint: "They get an email with a single-use link to choose their own password.",
  },
  { value: "password", label: "Set a password", hint: "You choose it and pass it on to them securely." },
];

type TSignInMethodFormFields = { email: string; password: string; signInMethod: TSignInMethod };

/**
 * Add Client / Add Employee's Sign-in section: the email, then "Send an invitation" (the default) or the spec's
 * "Set a password" with its Password field as it always was.
 */
export function SignInMethodFields({
  description,
  emailLabel,
  passwordHint,
}: {
  description: string;
  emailLabel: string;
  passwordHint: string;
}) {
  const {
    register,
    control,
    formState: { errors },
  } = useFormContext<TSignInMethodFormFields>();
  const method = useWatch({ control, name: "signInMethod" });
  const groupId = useId();

  return (
    <FormSection title="Sign-in" description={description}>
      <TextField
        label={emailLabel}
        type="email"
        inputMode="email"
        autoComplete="off"
        {...register("email")}
        error={fieldError(errors.email?.message)}
      />
      <div className="hidden sm:block" />
      <fieldset className="space-y-2 sm:col-span-2">
        <legend className="text-sm font-medium text-navy-900">How they get their sign-in</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          {SIGN_IN_METHODS.map((option) => (
            <div
              key={option.value}
              className="rounded-xl border border-slate-200 p-3 text-sm has-[:checked]:border-navy-700 has-[:checked]:bg-navy-50/60 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-emerald-500"
            >
              {/* The name is the option alone; what it does is its description. */}
              <label className="flex cursor-pointer items-center gap-3 font-semibold text-navy-900">
                <input
                  type="radio"
                  value={option.value}
                  className="size-4 accent-navy-800"
                  aria-describedby={`${groupId}-${option.value}`}
                  {...register("signInMethod")}
                />
                {option.label}
              </label>
              <p id={`${groupId}-${option.value}`} className="mt-1 pl-7 text-slate-600">
                {option.hint}
              </p>
            </div>
          ))}
        </div>
      </fieldset>
      {method === "password" ? (
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          hint={passwordHint}
          {...register("password")}
          error={fieldError(errors.password?.message)}
        />
      ) : null}
    </FormSection>
  );
}
