import { queryOptions, useQuery } from "@tanstack/react-query";

import { ZAuditVerificationSchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { auditQueryKey } from "./get-audit";

export const LOAD_AUDIT_VERIFICATION_FAILED = "Whether the audit trail is intact could not be checked.";

/** GET /api/admin/audit/verify: the result of `npm run audit:verify`'s check, reused for a few minutes. */
export function getAuditVerification() {
  return apiRequest("/api/admin/audit/verify", {
    schema: ZAuditVerificationSchema,
    fallbackError: LOAD_AUDIT_VERIFICATION_FAILED,
  });
}

export const auditVerificationQueryOptions = () =>
  queryOptions({ queryKey: [...auditQueryKey, "verify"], queryFn: getAuditVerification, staleTime: 60_000 });

/** Asks again every few seconds while the server is running a newer check. */
export function useAuditVerification() {
  return useQuery({
    ...auditVerificationQueryOptions(),
    refetchInterval: (query) => (query.state.data?.refreshing ? 3_000 : false),
  });
}
