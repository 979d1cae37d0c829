/** Strips one-time secrets from URLs before they reach the log (reset tokens, embed JWTs, OAuth codes). */
export function redactUrl(url: string): string {
  return url
    .replace(/(\/reset-password\/)[^/?#]+/, "$1[redacted]")
    .replace(/([?&](?:token|code|state|:jwt|jwt)=)[^&#]*/gi, "$1[redacted]");
}
