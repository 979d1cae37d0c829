import { BackOfficePlaceholder } from "./back-office-placeholder";

export function EmployeeListPage() {
  return <BackOfficePlaceholder title="Employees" />;
}
