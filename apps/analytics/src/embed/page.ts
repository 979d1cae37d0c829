import type { FrontEndAssets } from "../frontend.ts";
import type { TWorkbook } from "../workbooks/schema.ts";
import { EMBED_BOOT_ELEMENT_ID, type EmbedBoot } from "./boot.ts";
import type { EmbedErrorCode } from "./verify.ts";

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

export function embedCsp(allowedOrigins: readonly string[], nonce?: string): string {
  return [
    "default-src 'none'",
    `script-src 'self'${nonce ? ` 'nonce-${nonce}'` : ""}`,
    // ECharts writes inline styles into its tooltips.
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

/** Server-rendered skeleton of the page's grid, shown until the data arrives. */
function skeleton(page: TWorkbook["pages"][number]): string {
  return page.elements
    .map(
      (e) =>
        `<div class="wb-skeleton wb-span-${e.span}" style="min-height:${e.type === "kpi" ? 112 : (e.height ?? 320)}px" aria-hidden="true"></div>`,
    )
    .join("");
}

/**
 * The embed page in two parts. The head (styles, the module script, the skeleton) is sent at once so the browser
 * fetches and compiles the script while the server computes the first page's data; the tail carries the boot
 * JSON. Module scripts run after the document is parsed, so the script always finds the boot data.
 */
export function renderEmbedHead(
  definition: TWorkbook,
  pageId: string,
  theme: EmbedBoot["theme"],
  assets: FrontEndAssets,
  accent?: string,
): string {
  const page = definition.pages.find((p) => p.id === pageId) ?? definition.pages[0];
  // The portal's firm colour (`:accent_color`, checked by `accentOf`) on the light themes; the dark theme
  // keeps its own light accent, which reads on dark backgrounds.
  const accentStyle = accent && theme !== "dark" ? ` style="--accent:${accent}"` : "";
  return `<!doctype html>
<html lang="en" data-theme="${theme}"${accentStyle}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(definition.name)}</title>
${assets.styles.map((s) => `<link rel="stylesheet" href="${escapeHtml(s)}">`).join("\n")}
<script type="module" src="${escapeHtml(assets.script)}"></script>
</head>
<body>
<div id="root"><main class="wb-root" aria-busy="true"><div class="wb-header"><h1 class="wb-title">${escapeHtml(definition.name)}</h1></div><div class="wb-grid">${page ? skeleton(page) : ""}</div><p class="wb-visually-hidden" role="status">Loading ${escapeHtml(definition.name)}…</p></main></div>
`;
}

export function renderEmbedTail(boot: EmbedBoot): string {
  return `<script type="application/json" id="${EMBED_BOOT_ELEMENT_ID}">${scriptJson(boot)}</script>
</body>
</html>`;
}

export function renderEmbedPage(boot: EmbedBoot, definition: TWorkbook, assets: FrontEndAssets): string {
  return renderEmbedHead(definition, boot.pageId, boot.theme, assets) + renderEmbedTail(boot);
}

/**
 * The in-frame failure: a readable message, and `workbook:error` posted to the parent when its origin is one
 * of the allowed ones (picked from ancestorOrigins or the referrer; never "*").
 */
export function renderErrorPage(
  code: EmbedErrorCode,
  message: string,
  allowedOrigins: readonly string[],
  theme: string,
  nonce: string,
): string {
  const titles: Record<EmbedErrorCode, string> = {
    EINVAL: "This link can't be opened",
    EACCES: "You don't have access to this workbook",
    ENOENT: "Workbook not found",
    EPERM: "Access denied",
  };
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
  return `<!doctype html>
<html lang="en" data-theme="${escapeHtml(theme)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(titles[code])}</title>
<style nonce="${nonce}">
  :root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f6f7f9; color: #1f2933; }
  html[data-theme="dark"] body { background: #111418; color: #e6e8eb; }
  .box { max-width: 32rem; padding: 2rem; text-align: center; }
  h1 { font-size: 1.25rem; margin: 0 0 .5rem; }
  p { margin: 0; line-height: 1.5; }
  code { font-size: .8rem; opacity: .7; }
</style>
</head>
<body>
<main class="box" role="alert">
<h1>${escapeHtml(titles[code])}</h1>
<p>${escapeHtml(message)}</p>
<p><code>${code}</code></p>
</main>
<script nonce="${nonce}">${script}</script>
</body>
</html>`;
}
