import { BackOfficePlaceholder } from "./back-office-placeholder";

export function ClientListPage() {
  return <BackOfficePlaceholder title="Clients" />;
}
