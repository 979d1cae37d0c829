/**
 * Better Auth's session read (GET /api/auth/get-session), sent at once. The SPA sends it as it starts, on an
 * address behind a guard: the guard's read through the Better Auth client then takes this request's answer.
 * Sent any later, it would queue behind the dozens of module files the route table asks for in the same
 * moment, on the browser's few connections (decision 015).
 */
const SESSION_PATH = "/api/auth/get-session";

let sent: Promise<Response> | undefined;

export function sendSessionRequest(): void {
  sent ??= fetch(SESSION_PATH, { credentials: "include" });
}

/** The Better Auth client's fetch: its first session read takes the early request's answer, if there is one. */
export function authFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const early = sent;
  if (early && !(input instanceof Request)) {
    const url = new URL(input, window.location.origin);
    if (url.pathname === SESSION_PATH && url.search === "" && (init?.method ?? "GET") === "GET") {
      sent = undefined;
      return early;
    }
  }
  return fetch(input, init);
}
