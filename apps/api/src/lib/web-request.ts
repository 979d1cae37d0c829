import type { FastifyReply, FastifyRequest } from "fastify";

/** The request's headers as Web Headers, with the client address the server trusts. */
export function toWebHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) value.forEach((v) => headers.append(key, v));
    else headers.set(key, String(value));
  }
  // Never pass on a client-supplied X-Forwarded-For: Fastify's `trustProxy` already decided request.ip.
  headers.set("x-forwarded-for", request.ip);
  headers.set("x-request-id", request.id);
  return headers;
}

export function toWebRequest(request: FastifyRequest, origin: string): Request {
  const url = new URL(request.url, origin);
  const headers = toWebHeaders(request);
  let body: string | undefined;
  if (request.method !== "GET" && request.method !== "HEAD" && request.body !== undefined) {
    body = typeof request.body === "string" ? request.body : JSON.stringify(request.body);
  }
  return new Request(url, { method: request.method, headers, body });
}

export async function sendWebResponse(reply: FastifyReply, response: Response): Promise<FastifyReply> {
  reply.status(response.status);
  response.headers.forEach((value, key) => {
    if (key !== "set-cookie" && key !== "content-length") reply.header(key, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) reply.header("set-cookie", cookies);
  const text = response.body ? await response.text() : null;
  return reply.send(text);
}
