import { queryOptions, useQuery } from "@tanstack/react-query";

import { ZAuditVocabularySchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { auditQueryKey } from "./get-audit";

/** GET /api/admin/audit/vocabulary: the action names and outcomes, for the filters' lists. */
export function getAuditVocabulary() {
  return apiRequest("/api/admin/audit/vocabulary", {
    schema: ZAuditVocabularySchema,
    fallbackError: "The list of audit actions could not be loaded.",
  });
}

export const auditVocabularyQueryOptions = () =>
  queryOptions({
    queryKey: [...auditQueryKey, "vocabulary"],
    queryFn: getAuditVocabulary,
    staleTime: Infinity,
  });

export function useAuditVocabulary() {
  return useQuery(auditVocabularyQueryOptions());
}
