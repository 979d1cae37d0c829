import type { FastifyReply, FastifyRequest } from "fastify";

/** X-Total-Count and an RFC 8288 Link header with the next and previous pages. */
export function setPageHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  page: { total: number; limit: number; offset: number },
) {
  reply.header("x-total-count", String(page.total));
  const links: string[] = [];
  const make = (offset: number, rel: string) => {
    const url = new URL(request.url, "http://placeholder");
    url.searchParams.set("limit", String(page.limit));
    url.searchParams.set("offset", String(offset));
    links.push(`<${url.pathname}${url.search}>; rel="${rel}"`);
  };
  if (page.offset + page.limit < page.total) make(page.offset + page.limit, "next");
  if (page.offset > 0) make(Math.max(0, page.offset - page.limit), "prev");
  if (links.length > 0) reply.header("link", links.join(", "));
  reply.header("access-control-expose-headers", "X-Total-Count, Link");
}
