import { Button } from "./button";

/** The buttons under a form that opened in place: Cancel (closes it) and the submit button. */
export function FormActions({
  onCancel,
  pending,
  submitLabel,
  pendingLabel,
}: {
  onCancel: () => void;
  pending: boolean;
  submitLabel: string;
  /** The submit button's text while the request runs (e.g. 'Saving...'). */
  pendingLabel: string;
}) {
  return (
    <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
      <Button variant="secondary" onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
      <Button type="submit" isLoading={pending}>
        {pending ? pendingLabel : submitLabel}
      </Button>
    </div>
  );
}
