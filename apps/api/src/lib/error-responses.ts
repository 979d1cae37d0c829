import { ZErrorResponseSchema } from "@portal/contracts";

/**
 * The error answers an admin route documents (OpenAPI) and serialises: 400 bad input, 401 no session, 403 not
 * an admin, 404 no such record, 409 a conflict. Routes add their own (413, 410, 429) beside these.
 */
export const adminErrorResponses = {
  400: ZErrorResponseSchema,
  401: ZErrorResponseSchema,
  403: ZErrorResponseSchema,
  404: ZErrorResponseSchema,
  409: ZErrorResponseSchema,
};
