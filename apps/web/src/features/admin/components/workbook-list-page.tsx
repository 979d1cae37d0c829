import { BackOfficePlaceholder } from "./back-office-placeholder";

export function WorkbookListPage() {
  return <BackOfficePlaceholder title="Workbooks" />;
}
