import { BackOfficePlaceholder } from "./back-office-placeholder";

export function EmbedUrlPage() {
  return <BackOfficePlaceholder title="Embed" />;
}
