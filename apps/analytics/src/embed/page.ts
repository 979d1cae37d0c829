import { createHash } from "node:crypto";
import type { FrontEndAssets } from "../frontend.ts";
import { isChart } from "../charts/option.ts";
import type { TWorkbook } from "../workbooks/schema.ts";
import { EMBED_BOOT_ELEMENT_ID, type EmbedBoot } from "./boot.ts";
import type { TSigmaErrorCode } from "../error-codes.ts";

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON safe inside a `<script>` element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/**
 * Runs as soon as the page's skeleton is laid out (after the stylesheet, before the data arrives): tells the
 * server the size of every chart slot, so it draws the charts for this frame's width with the first page's
 * data (decision 015). Constant text, allowed by its hash.
 */
export const LAYOUT_SCRIPT = `(() => {
  const script = document.currentScript;
  const sizes = {};
  for (const slot of document.querySelectorAll("[data-chart-slot]")) {
    const box = slot.getBoundingClientRect();
    sizes[slot.dataset.chartSlot] = { width: Math.floor(box.width), height: Math.floor(box.height) };
  }
  fetch(script.dataset.url, {
    method: "POST",
    headers: { authorization: "Bearer " + script.dataset.token, "content-type": "application/json" },
    body: JSON.stringify({ sizes }),
  }).catch(() => {});
})();`;
const LAYOUT_SCRIPT_HASH = `sha256-${createHash("sha256").update(LAYOUT_SCRIPT).digest("base64")}`;

export function embedCsp(allowedOrigins: readonly string[], nonce?: string): string {
  return [
    "default-src 'none'",
    nonce ? `script-src 'self' 'nonce-${nonce}'` : `script-src 'self' '${LAYOUT_SCRIPT_HASH}'`,
    // The server-drawn charts carry their hover styles in a <style> element; tooltips are placed inline.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    `frame-ancestors ${allowedOrigins.length ? allowedOrigins.join(" ") : "'none'"}`,
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
  ].join("; ");
}

/** Height of a chart's drawing area (`.wb-chart`) outside full screen. */
export function chartHeight(element: { height?: number }): number {
  return element.height ?? 300;
}

/**
 * Server-rendered skeleton of the page's grid, shown until the data arrives: the cards of the real page, so
 * a chart's slot has the width its chart will have (the layout script measures them).
 */
function skeleton(page: TWorkbook["pages"][number]): string {
  return page.elements
    .map((e) => {
      const inner = isChart(e)
        ? `<div class="wb-skeleton" data-chart-slot="${escapeHtml(e.id)}" style="height:${chartHeight(e)}px"></div>`
        : `<div class="wb-skeleton" style="min-height:${e.type === "kpi" ? 80 : (e.height ?? 300)}px"></div>`;
      return `<div class="wb-card wb-span-${e.span}" aria-hidden="true">${inner}</div>`;
    })
    .join("");
}

/**
 * The embed page in two parts. The head (styles, the module script, the skeleton) is sent at once so the browser
 * fetches and compiles the script while the server computes the first page's data; the tail carries the boot
 * JSON. Module scripts run after the document is parsed, so the script always finds the boot data.
 */
export function renderEmbedHead(
  definition: TWorkbook,
  boot: Pick<EmbedBoot, "pageId" | "theme" | "responsiveHeight" | "sessionToken">,
  assets: FrontEndAssets,
  layoutUrl: string,
  accent?: string,
): string {
  const { pageId, theme } = boot;
  const page = definition.pages.find((p) => p.id === pageId) ?? definition.pages[0];
  // The portal's firm colour (`:accent_color`, checked by `accentOf`) on the light themes; the dark theme
  // keeps its own light accent, which reads on dark backgrounds.
  const accentStyle = accent && theme !== "dark" ? ` style="--accent:${accent}"` : "";
  // A host that sizes the frame to the page (`:responsive_height`) never needs the frame to scroll: without
  // a scroll bar coming and going, the charts keep the width they were drawn for.
  const fit = boot.responsiveHeight ? ' class="wb-fit"' : "";
  return `<!doctype html>
<html lang="en" data-theme="${theme}"${fit}${accentStyle}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(definition.name)}</title>
<style>${assets.css}</style>
<script type="module" src="${escapeHtml(assets.script)}"></script>
</head>
<body>
<div id="root"><main class="wb-root" aria-busy="true"><div class="wb-header"><h1 class="wb-title">${escapeHtml(definition.name)}</h1></div><div class="wb-grid">${page ? skeleton(page) : ""}</div><p class="wb-visually-hidden" role="status">Loading ${escapeHtml(definition.name)}…</p></main></div>
<script data-url="${escapeHtml(layoutUrl)}" data-token="${escapeHtml(boot.sessionToken)}">${LAYOUT_SCRIPT}</script>
`;
}

export function renderEmbedTail(boot: EmbedBoot): string {
  return `<script type="application/json" id="${EMBED_BOOT_ELEMENT_ID}">${scriptJson(boot)}</script>
</body>
</html>`;
}

const PAGE_STYLE = `
  :root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f6f7f9; color: #1f2933; }
  html[data-theme="dark"] body { background: #111418; color: #e6e8eb; }
  .box { max-width: 32rem; padding: 2rem; text-align: center; }
  h1 { font-size: 1.25rem; margin: 0 0 .5rem; }
  p { margin: 0; line-height: 1.5; }
  code { font-size: .8rem; opacity: .7; }`;

function messagePage(title: string, theme: string, nonce: string, body: string, script = ""): string {
  return `<!doctype html>
<html lang="en" data-theme="${escapeHtml(theme)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${PAGE_STYLE}
</style>
</head>
<body>
${body}
${script ? `<script nonce="${nonce}">${script}</script>\n` : ""}</body>
</html>`;
}

const TITLES: Record<TSigmaErrorCode, string> = {
  EINVAL: "This link can't be opened",
  EACCES: "You don't have access to this workbook",
  ENOENT: "Workbook not found",
  EPERM: "Access denied",
  EEXIST: "Already exists",
  ESTALE: "This workbook has changed",
  ETIMEDOUT: "This took too long",
  NETWORK: "Unable to connect",
  UNKNOWN: "Something went wrong",
};

/**
 * The in-frame failure with a code: a readable message, and `workbook:error` posted to the parent when its
 * origin is one of the allowed ones (picked from ancestorOrigins or the referrer; never "*").
 */
export function renderErrorPage(
  code: TSigmaErrorCode,
  message: string,
  allowedOrigins: readonly string[],
  theme: string,
  nonce: string,
): string {
  const script = `(() => {
  const allowed = ${scriptJson(allowedOrigins)};
  const candidates = [];
  try { const a = window.location.ancestorOrigins; if (a && a.length) candidates.push(a[0]); } catch (e) {}
  try { if (document.referrer) candidates.push(new URL(document.referrer).origin); } catch (e) {}
  let target = candidates.find((o) => allowed.includes(o));
  if (!target && allowed.length === 1 && candidates.length === 0) target = allowed[0];
  if (target && window.parent !== window) {
    window.parent.postMessage(${scriptJson({ type: "workbook:error", code, message })}, target);
  }
})();`;
  const body = `<main class="box" role="alert">
<h1>${escapeHtml(TITLES[code])}</h1>
<p>${escapeHtml(message)}</p>
<p><code>${code}</code></p>
</main>`;
  return messagePage(TITLES[code], theme, nonce, body, script);
}

/** The in-frame failure Sigma documents without a code: the message alone, and no event. */
export function renderNoticePage(message: string, theme: string, nonce: string): string {
  return messagePage(
    message,
    theme,
    nonce,
    `<main class="box" role="alert">\n<p>${escapeHtml(message)}</p>\n</main>`,
  );
}
