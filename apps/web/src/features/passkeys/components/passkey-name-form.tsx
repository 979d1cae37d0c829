import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";

import { TextField } from "@/components/ui/field";
import { FormActions } from "@/components/ui/form-actions";
import { FormMessage } from "@/components/ui/form-message";
import { PASSKEY_NAME_MAX_LENGTH, ZPasskeyNameFormSchema } from "@/lib/passkey-registration";
import type { TPasskeyNameForm } from "@/lib/passkey-registration";

type TPasskeyNameFormProps = {
  /** The field's label ("Name", "New name for Work laptop"). */
  label: string;
  defaultName: string;
  hint?: string;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** The refusal to show, in words. */
  error: string | undefined;
  onSubmit: (name: string) => void;
  onCancel: () => void;
};

/** The card's inline form for a passkey's name: adding one (before the browser's prompt) or renaming one. */
export function PasskeyNameForm({
  label,
  defaultName,
  hint,
  submitLabel,
  pendingLabel,
  pending,
  error,
  onSubmit,
  onCancel,
}: TPasskeyNameFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<TPasskeyNameForm>({
    resolver: zodResolver(ZPasskeyNameFormSchema),
    defaultValues: { name: defaultName },
  });
  return (
    <form
      onSubmit={handleSubmit(({ name }) => onSubmit(name))}
      noValidate
      className="space-y-4 rounded-xl border border-slate-200 bg-slate-50/60 p-4 sm:p-5"
    >
      <fieldset disabled={pending} className="contents">
        <TextField
          label={label}
          autoComplete="off"
          maxLength={PASSKEY_NAME_MAX_LENGTH + 20}
          // Opened by a button for this very field: the focus goes to it.
          autoFocus
          hint={hint}
          error={errors.name?.message}
          {...register("name")}
        />
      </fieldset>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      <FormActions
        onCancel={onCancel}
        pending={pending}
        submitLabel={submitLabel}
        pendingLabel={pendingLabel}
      />
    </form>
  );
}
