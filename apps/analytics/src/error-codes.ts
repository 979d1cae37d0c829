/**
 * The error codes Sigma documents ("Common embed error codes and messages"), and no others: `workbook:error`
 * and `workbook:chart:error` carry them, and so does the `code` of this server's REST API errors (Sigma's
 * REST definition documents no codes of its own, so the same vocabulary is used there).
 */
export const SIGMA_ERROR_CODES = [
  "EEXIST",
  "EPERM",
  "ESTALE",
  "ENOENT",
  "EACCES",
  "EINVAL",
  "ETIMEDOUT",
  "NETWORK",
  "UNKNOWN",
] as const;
export type TSigmaErrorCode = (typeof SIGMA_ERROR_CODES)[number];
