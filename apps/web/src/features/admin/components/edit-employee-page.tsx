import { BackOfficePlaceholder } from "./back-office-placeholder";

export function EditEmployeePage() {
  return <BackOfficePlaceholder title="Edit Employee" />;
}
