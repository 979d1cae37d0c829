import { useId } from "react";
import { Controller, useFormContext, useWatch } from "react-hook-form";

import { TextField } from "@/components/ui/field";
import { fieldError } from "@/lib/form-errors";

import { firstEndDay } from "../utils/delegate-form";
import type { TDelegateAccessForm } from "../utils/delegate-form";

/** A workbook that can be shared: its id and its name as people read it. */
export type TShareableWorkbook = { id: number; name: string };

const radioClasses = "size-4 shrink-0 accent-emerald-700";

/**
 * What a delegate may see and until when, in the invite and change forms: all workbooks (also ones assigned
 * later) or the ones ticked, and an optional last day. Reads the form it is in (`FormProvider`).
 */
export function AccessFields({
  workbooks,
  autoFocus = false,
}: {
  /** The client's own workbooks, the ones that can be shared. */
  workbooks: ReadonlyArray<TShareableWorkbook>;
  /** Opened by "Change": the first choice takes the focus. */
  autoFocus?: boolean;
}) {
  const id = useId();
  const {
    register,
    control,
    formState: { errors },
  } = useFormContext<TDelegateAccessForm>();
  const share = useWatch({ control, name: "share" });
  const workbooksError = errors.workbookIds?.message;

  return (
    <>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-navy-900">What they can see</legend>
        <label className="flex items-center gap-2.5 text-sm text-slate-700">
          <input
            type="radio"
            value="all"
            className={radioClasses}
            autoFocus={autoFocus}
            {...register("share")}
          />
          All workbooks, including ones added later
        </label>
        <label className="flex items-center gap-2.5 text-sm text-slate-700">
          <input type="radio" value="chosen" className={radioClasses} {...register("share")} />
          Only the workbooks chosen below
        </label>
      </fieldset>

      {share === "chosen" ? (
        <fieldset
          className="space-y-2 rounded-lg border border-slate-200 p-3.5"
          aria-describedby={workbooksError ? `${id}-workbooks-error` : undefined}
        >
          <legend className="px-1 text-sm font-medium text-navy-900">Workbooks to share</legend>
          {workbooks.length === 0 ? (
            <p className="text-sm text-slate-600">There are no workbooks to choose from yet.</p>
          ) : (
            <Controller
              control={control}
              name="workbookIds"
              render={({ field }) => (
                <ul className="grid gap-2 sm:grid-cols-2">
                  {workbooks.map((workbook) => (
                    <li key={workbook.id}>
                      <label className="flex items-start gap-2.5 text-sm text-slate-700">
                        <input
                          type="checkbox"
                          className="mt-0.5 size-4 shrink-0 accent-emerald-700"
                          checked={field.value.includes(workbook.id)}
                          onChange={(event) =>
                            field.onChange(
                              event.target.checked
                                ? [...field.value, workbook.id]
                                : field.value.filter((chosen) => chosen !== workbook.id),
                            )
                          }
                          onBlur={field.onBlur}
                        />
                        <span className="min-w-0 break-words">{workbook.name}</span>
                      </label>
                    </li>
                  ))}
                </ul>
              )}
            />
          )}
          {workbooksError ? (
            <p id={`${id}-workbooks-error`} className="text-sm text-red-700">
              {workbooksError}
            </p>
          ) : null}
        </fieldset>
      ) : null}

      <TextField
        label="End date (optional)"
        type="date"
        min={firstEndDay()}
        hint="Access ends at the end of this day. Leave it empty to keep access until it is removed."
        error={fieldError(errors.endDate?.message)}
        {...register("endDate")}
      />
    </>
  );
}
