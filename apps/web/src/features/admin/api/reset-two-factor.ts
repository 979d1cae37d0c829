import { useMutation, useQueryClient } from "@tanstack/react-query";

import { ZTwoFactorResetResponseSchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { clientsQueryKey } from "./get-clients";
import { employeesQueryKey } from "./get-employees";

export type TTwoFactorResetTarget = { type: "client"; cId: number } | { type: "employee"; eId: number };

/**
 * POST /api/admin/resettwofactorclient/{c_id} or …employee/{e_id}: removes the person's two-step
 * verification after they lost their authenticator app and backup codes, and signs them out.
 */
export function resetTwoFactor(target: TTwoFactorResetTarget) {
  const url =
    target.type === "client"
      ? `/api/admin/resettwofactorclient/${target.cId}`
      : `/api/admin/resettwofactoremployee/${target.eId}`;
  return apiRequest(url, {
    method: "POST",
    schema: ZTwoFactorResetResponseSchema,
    fallbackError: "Two-step verification could not be reset. Please try again.",
  });
}

export function useResetTwoFactor(target: TTwoFactorResetTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => resetTwoFactor(target),
    onSuccess: () =>
      queryClient.invalidateQueries({
        queryKey: target.type === "client" ? clientsQueryKey : employeesQueryKey,
      }),
  });
}
