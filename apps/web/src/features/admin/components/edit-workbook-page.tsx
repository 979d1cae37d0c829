import { BackOfficePlaceholder } from "./back-office-placeholder";

export function EditWorkbookPage() {
  return <BackOfficePlaceholder title="Edit Workbook" />;
}
