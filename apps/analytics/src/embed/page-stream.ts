import type { OutgoingHttpHeaders } from "node:http";
import { constants as zlibConstants, createBrotliCompress, createGzip } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";
import { renderCharts } from "../charts/render.ts";
import { clientIdsFromAttributes } from "../db/row-security.ts";
import { acceptsEncoding } from "../encoding.ts";
import { readFrontEndAssets } from "../frontend.ts";
import type { TWorkbook } from "../workbooks/schema.ts";
import type { EmbedBoot, PageData } from "./boot.ts";
import type { EmbedContext } from "./context.ts";
import { LAYOUT_GRACE_MS, within } from "./layout.ts";
import type { Member } from "./members.ts";
import { renderEmbedHead, renderEmbedTail } from "./page.ts";

/**
 * Whether the request is a browser opening the page in a frame or tab, which runs the page's layout script;
 * other clients get the page without waiting for chart sizes (the page asks for its charts itself then).
 */
function runsPageScripts(request: FastifyRequest): boolean {
  return ["iframe", "frame", "document"].includes(String(request.headers["sec-fetch-dest"] ?? ""));
}

/** The page's body stream, compressed as the browser accepts, written straight to the socket. */
function pageStream(request: FastifyRequest, reply: FastifyReply) {
  const accept = request.headers["accept-encoding"];
  const encoding = acceptsEncoding(accept, "br")
    ? "br"
    : acceptsEncoding(accept, "gzip")
      ? "gzip"
      : undefined;
  reply.header("vary", "accept-encoding");
  if (encoding) reply.header("content-encoding", encoding);
  reply.hijack();
  reply.raw.writeHead(200, reply.getHeaders() as OutgoingHttpHeaders);
  if (!encoding) {
    return { write: (chunk: string) => reply.raw.write(chunk), end: (chunk: string) => reply.raw.end(chunk) };
  }
  const zip =
    encoding === "br"
      ? createBrotliCompress({ params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } })
      : createGzip({ level: 6 });
  zip.pipe(reply.raw);
  return {
    // Flushed: the head must reach the browser now, not when the compressor's buffer fills.
    write: (chunk: string) => {
      zip.write(chunk);
      zip.flush();
    },
    end: (chunk: string) => zip.end(chunk),
  };
}

/** Streams the page: its head at once, the boot data (with the first page's rows and charts) when ready. */
export async function streamPage(
  ctx: EmbedContext,
  request: FastifyRequest,
  reply: FastifyReply,
  wb: TWorkbook,
  boot: EmbedBoot,
  member: Member,
  accent: string | undefined,
) {
  const { layouts, layoutUrl, results } = ctx;
  const { sessionToken } = boot;
  // The page reports its chart sizes from the skeleton while the queries run (page.ts's layout script).
  const sizes = runsPageScripts(request) ? layouts.expect(sessionToken) : undefined;
  const head = renderEmbedHead(wb, boot, await readFrontEndAssets(), layoutUrl, accent);
  // Written straight to the socket (not through a stream Fastify pipes later), so the browser has the
  // head, and starts on the script, before the queries below occupy this thread (PGlite runs in-process).
  const out = pageStream(request, reply);
  out.write(head);
  const page = wb.pages.find((p) => p.id === boot.pageId) as TWorkbook["pages"][number];
  setImmediate(() => {
    results
      .get({
        clientIds: clientIdsFromAttributes(member.user_attributes),
        workbook: wb,
        pageId: boot.pageId,
        variables: boot.initialVariables,
      })
      .then(
        async (data) => {
          // Charts the page has not measured in time are drawn when it asks for them.
          const measured = sizes ? await within(sizes, LAYOUT_GRACE_MS) : undefined;
          const initial: PageData = {
            ...data,
            charts: measured ? renderCharts(page.elements, data, boot.theme, measured) : {},
          };
          boot.initialData = initial;
        },
        (error: unknown) => {
          // The page fetches its data itself when this fails.
          request.log.error({ err: error }, "initial data failed");
        },
      )
      // Nor may the charts keep the page from ending: the page asks for them itself then.
      .catch((error: unknown) => request.log.error({ err: error }, "initial charts failed"))
      .finally(() => {
        layouts.forget(sessionToken);
        out.end(renderEmbedTail(boot));
      });
  });
  return reply;
}
