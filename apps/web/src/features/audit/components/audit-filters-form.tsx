import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect } from "react";
import { useForm } from "react-hook-form";

import { Button } from "@/components/ui/button";
import { SelectField, TextField } from "@/components/ui/field";

import { useAuditVocabulary } from "../api/get-audit-vocabulary";
import { ZAuditFilterFormSchema, formValuesOf } from "../utils/audit-filters";
import type { TAuditFilterForm, TAuditFilters } from "../utils/audit-filters";
import { AUDIT_OUTCOME_LABELS } from "../utils/audit-labels";

type TAuditFiltersFormProps = {
  filters: TAuditFilters;
  onApply: (filters: TAuditFilters) => void;
};

/** Person (email), action, outcome and a range of days; applied together, cleared together. */
export function AuditFiltersForm({ filters, onApply }: TAuditFiltersFormProps) {
  const vocabulary = useAuditVocabulary();
  const form = useForm<TAuditFilterForm>({
    resolver: zodResolver(ZAuditFilterFormSchema),
    defaultValues: formValuesOf(filters),
  });
  const { errors } = form.formState;

  // Back/forward or a link changed the filters: show them.
  const shown = JSON.stringify(formValuesOf(filters));
  useEffect(() => {
    form.reset(JSON.parse(shown) as TAuditFilterForm);
  }, [shown, form]);

  const onSubmit = form.handleSubmit((values) => {
    onApply({
      person: values.person.toLowerCase() || undefined,
      action: values.action || undefined,
      outcome: values.outcome || undefined,
      from: values.from || undefined,
      to: values.to || undefined,
    });
  });

  const actions = [
    { value: "", label: "All actions" },
    ...(vocabulary.data?.actions ?? (filters.action ? [filters.action] : [])).map((a) => ({
      value: a,
      label: a,
    })),
  ];
  const outcomes = [
    { value: "", label: "All outcomes" },
    ...(vocabulary.data?.outcomes ?? Object.keys(AUDIT_OUTCOME_LABELS)).map((o) => ({
      value: o,
      label: AUDIT_OUTCOME_LABELS[o] ?? o,
    })),
  ];

  return (
    // Laid out by the width the form has (container queries), not the window's: the sidebar takes its share.
    <div className="@container border-b border-slate-200">
      <form
        onSubmit={(event) => void onSubmit(event)}
        noValidate
        aria-label="Filter the audit log"
        className="grid gap-4 p-4 @lg:grid-cols-2 @3xl:grid-cols-3 @5xl:grid-cols-[minmax(11rem,2fr)_minmax(9rem,1.4fr)_minmax(9.5rem,1fr)_minmax(9.75rem,1fr)_minmax(9.75rem,1fr)_auto]"
      >
        <TextField
          label="Person's email"
          type="email"
          autoComplete="off"
          placeholder="name@example.com"
          maxLength={254}
          error={errors.person?.message}
          {...form.register("person")}
        />
        <SelectField label="Action" options={actions} {...form.register("action")} />
        <SelectField label="Outcome" options={outcomes} {...form.register("outcome")} />
        <TextField label="From" type="date" error={errors.from?.message} {...form.register("from")} />
        <TextField label="To" type="date" error={errors.to?.message} {...form.register("to")} />
        <div className="flex items-end gap-2 @lg:col-span-2 @3xl:col-span-1">
          <Button type="submit" size="md">
            Apply
          </Button>
          <Button
            variant="ghost"
            size="md"
            onClick={() => {
              form.reset(formValuesOf({}));
              onApply({});
            }}
          >
            Clear
          </Button>
        </div>
      </form>
    </div>
  );
}
