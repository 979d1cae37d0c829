import { BackOfficePlaceholder } from "./back-office-placeholder";

export function AddEmployeePage() {
  return <BackOfficePlaceholder title="Add Employee" />;
}
