import { zodResolver } from "@hookform/resolvers/zod";
import { Controller, useForm } from "react-hook-form";

import type { THousehold, THouseholdInput } from "@portal/contracts";

import { TextField } from "@/components/ui/field";
import { FormActions } from "@/components/ui/form-actions";
import { FormMessage } from "@/components/ui/form-message";
import { Switch } from "@/components/ui/switch";
import { fieldError } from "@/lib/form-errors";

import {
  COMBINED_VIEW_EXPLAINED,
  ZHouseholdFormSchema,
  householdBody,
  householdDefaults,
} from "../utils/household-form";
import type { THouseholdForm, THouseholdFormInput } from "../utils/household-form";
import { MembersPicker } from "./members-picker";

type THouseholdFormProps = {
  /** The household being edited; undefined: a new one. */
  household?: THousehold | undefined;
  pending: boolean;
  /** The refusal to show (the server's message, e.g. a client already in another household). */
  error: string | undefined;
  onSubmit: (body: THouseholdInput) => void;
  onCancel: () => void;
};

/** Create or edit a household: its name, its members (clients) and whether its combined view is on. */
export function HouseholdForm({ household, pending, error, onSubmit, onCancel }: THouseholdFormProps) {
  const title = household ? `Edit household: ${household.name}` : "Add household";
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<THouseholdFormInput, unknown, THouseholdForm>({
    resolver: zodResolver(ZHouseholdFormSchema),
    defaultValues: householdDefaults(household),
  });

  return (
    <form
      onSubmit={handleSubmit((values) => onSubmit(householdBody(values)))}
      noValidate
      aria-labelledby="household-form-title"
      className="rounded-2xl border border-slate-200 bg-white shadow-sm"
    >
      <div className="border-b border-slate-100 px-5 py-5 sm:px-8">
        <h2 id="household-form-title" className="text-base font-semibold text-navy-950">
          {title}
        </h2>
        <p className="mt-0.5 text-sm text-slate-500">
          Clients of one family or business, grouped so the firm can see them together.
        </p>
      </div>
      <fieldset disabled={pending} className="space-y-5 px-5 py-6 sm:px-8">
        <TextField
          label="Household name"
          autoComplete="off"
          maxLength={100}
          // The form opens on request (Add household, Edit), so moving focus into it is expected.
          autoFocus
          error={fieldError(errors.name?.message)}
          {...register("name")}
        />
        <Controller
          control={control}
          name="members"
          render={({ field }) => (
            <MembersPicker
              selected={field.value}
              onChange={field.onChange}
              error={errors.members?.message}
              disabled={pending}
            />
          )}
        />
        <Controller
          control={control}
          name="combinedView"
          render={({ field }) => (
            <Switch
              label="Combined view"
              description={COMBINED_VIEW_EXPLAINED}
              checked={field.value}
              onChange={field.onChange}
              disabled={pending}
            />
          )}
        />
      </fieldset>
      <div className="space-y-4 border-t border-slate-100 px-5 py-5 sm:px-8">
        {error ? <FormMessage tone="error">{error}</FormMessage> : null}
        <FormActions
          onCancel={onCancel}
          pending={pending}
          submitLabel={household ? "Save household" : "Add household"}
          pendingLabel="Saving..."
        />
      </div>
    </form>
  );
}
