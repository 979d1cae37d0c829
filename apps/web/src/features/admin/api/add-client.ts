import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";

import { ZAddClientRequestSchema, ZAddClientResponseSchema, ZPrivilegeSchema } from "@portal/contracts";
import type { TAddClientInviteRequest, TAddClientRequest, TAddClientResponse } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { clientsQueryKey } from "./get-clients";

/** The Add Client form's fields, checked with the request's own rules (blank → 'All fields are required.'). */
export const ZAddClientFormSchema = ZAddClientRequestSchema.pick({
  clientId: true,
  firstName: true,
  lastName: true,
  email: true,
  password: true,
}).extend({
  // The select starts empty (""), which the privilege rule reports as a missing field.
  privilege: z.string().pipe(ZPrivilegeSchema),
});
export type TAddClientFormInput = z.input<typeof ZAddClientFormSchema>;
export type TAddClientFormValues = z.output<typeof ZAddClientFormSchema>;

/** "Send an invitation" (the default, D55): the same fields without the password, which the person chooses. */
export const ZAddClientInviteFormSchema = ZAddClientFormSchema.omit({ password: true });

/**
 * POST /api/admin/addclient: the client, their sign-in account and workbook assignments in one go: the spec's
 * payload with a password, or without one and `invite: true` ("Send an invitation", D55).
 */
export function addClient(input: TAddClientRequest | TAddClientInviteRequest): Promise<TAddClientResponse> {
  return apiRequest("/api/admin/addclient", {
    method: "POST",
    body: input,
    schema: ZAddClientResponseSchema,
    fallbackError: "The client could not be registered.",
  });
}

export function useAddClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addClient,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientsQueryKey }),
  });
}
