import { BackOfficePlaceholder } from "./back-office-placeholder";

export function AddWorkbookPage() {
  return <BackOfficePlaceholder title="Add Workbook" />;
}
