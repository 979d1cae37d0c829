import { BackOfficePlaceholder } from "./back-office-placeholder";

export function AddClientPage() {
  return <BackOfficePlaceholder title="Add Client" />;
}
