import { BackOfficePlaceholder } from "./back-office-placeholder";

export function EditClientPage() {
  return <BackOfficePlaceholder title="Edit Client" />;
}
