import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";

import type { TWorkbookInput } from "@portal/contracts";

import { FormSection, SubmitFooter } from "@/components/admin/form-layout";
import { TextField } from "@/components/ui/field";
import { fieldError, hasMissingFields } from "@/lib/form-errors";

import { ZWorkbookFormSchema } from "../api/add-workbook";
import type { TWorkbookFormInput } from "../api/add-workbook";

export const WORKBOOK_LIST = "/admin/workbook-list";

type TWorkbookFormProps = {
  defaultValues: TWorkbookInput;
  onSubmit: (values: TWorkbookInput) => void;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** The failure to show under the form (the server's message, else the screen's fallback). */
  error: string | undefined;
  success: string | undefined;
};

/** Workbook Name and Team Name, shared by Add Workbook and Edit Workbook. */
export function WorkbookForm({
  defaultValues,
  onSubmit,
  submitLabel,
  pendingLabel,
  pending,
  error,
  success,
}: TWorkbookFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<TWorkbookFormInput, unknown, TWorkbookInput>({
    resolver: zodResolver(ZWorkbookFormSchema),
    defaultValues,
  });
  const done = success !== undefined;

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate>
      <fieldset disabled={pending || done} className="contents">
        <FormSection title="Workbook">
          <div className="sm:col-span-2">
            <TextField
              label="Workbook Name"
              autoComplete="off"
              spellCheck={false}
              hint={
                <>
                  The name in the workbook&apos;s Sigma URL: the title with hyphens, then its 22–24 character
                  id, e.g. <span className="font-mono">Portfolio-Overview-wBUBiChqcA6De2yMJGx4YJ</span>.
                </>
              }
              error={fieldError(errors.workbook_name?.message)}
              {...register("workbook_name")}
            />
          </div>
          <TextField
            label="Team Name"
            autoComplete="off"
            hint="The Sigma team whose members may open it."
            error={fieldError(errors.team_name?.message)}
            {...register("team_name")}
          />
        </FormSection>
      </fieldset>
      <SubmitFooter
        cancelTo={WORKBOOK_LIST}
        submitLabel={submitLabel}
        pendingLabel={pendingLabel}
        pending={pending}
        done={done}
        missingFields={hasMissingFields(errors)}
        error={error}
        success={success}
      />
    </form>
  );
}
