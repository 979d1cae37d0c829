import { createHash } from "node:crypto";
import { LOGO_MAX_BYTES } from "@portal/contracts";
import createDOMPurify from "dompurify";
import { imageSize } from "image-size";
import { JSDOM } from "jsdom";
import { AppError } from "../lib/errors.ts";

export type LogoType = "image/png" | "image/svg+xml";

export interface CheckedLogo {
  bytes: Buffer;
  type: LogoType;
  sha256: string;
}

/** Larger than any logo needs; a bigger PNG is most likely a photo. */
const MAX_SIDE_PX = 4096;

const { window } = new JSDOM("");
const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
const serializer = new window.XMLSerializer();

/** Elements whose removal means the file tried to run or embed something, not just editor leftovers. */
const ACTIVE_ELEMENTS = new Set([
  "script",
  "foreignobject",
  "iframe",
  "object",
  "embed",
  "handler",
  "listener",
  "audio",
  "video",
]);

/** A reference to anything but a fragment of the same file (`#id`). */
const EXTERNAL_URL = /url\(\s*['"]?\s*(?!#)/i;

// Found by the hook during one (synchronous) sanitize call.
let externalFound: string[] = [];
purify.addHook("uponSanitizeAttribute", (_node, data) => {
  const name = data.attrName.toLowerCase();
  const value = data.attrValue.trim();
  const isReference = name === "href" || name.endsWith(":href") || name === "src";
  if ((isReference && !value.startsWith("#")) || EXTERNAL_URL.test(value)) {
    externalFound.push(`${data.attrName}="${value.slice(0, 80)}"`);
    data.keepAttr = false;
  }
});

function refuse(message: string, code: "LOGO_TYPE" | "LOGO_UNSAFE" | "LOGO_TOO_LARGE" = "LOGO_TYPE"): never {
  throw new AppError(code === "LOGO_TOO_LARGE" ? 413 : 400, message, code);
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

export function logoTooLarge(bytes: number): never {
  return refuse(
    `The logo file is ${sizeText(bytes)}; a logo may be at most 512 KB. Export it smaller or as SVG.`,
    "LOGO_TOO_LARGE",
  );
}

/**
 * An SVG logo with DOMPurify's SVG profile (decision 014). Editor leftovers (metadata, unknown namespaces)
 * are dropped silently; script, event handlers, embedded documents and references to other files refuse the
 * whole file, so the admin learns that the logo was not what they thought.
 */
function checkSvg(text: string): Buffer {
  externalFound = [];
  const fragment = purify.sanitize(text, {
    USE_PROFILES: { svg: true, svgFilters: true },
    ADD_TAGS: ["use"],
    RETURN_DOM_FRAGMENT: true,
  });
  const external = externalFound;
  const active = new Set<string>();
  for (const removed of purify.removed as { element?: Element; attribute?: Attr | null }[]) {
    const element = removed.element;
    const name = element?.nodeName.toLowerCase();
    if (name && ACTIVE_ELEMENTS.has(name)) active.add(`<${name}>`);
    // An element dropped as a whole (an animation, an unknown tag) takes its event handlers with it, and those
    // of the elements inside it: they count as the script they are.
    if (element?.getAttributeNames) {
      for (const node of [element, ...element.querySelectorAll("*")]) {
        for (const attribute of node.getAttributeNames()) {
          if (/^on/i.test(attribute)) active.add(attribute.toLowerCase());
          // `<set attributeName="href" to="javascript:…">` and the like.
          if (/^\s*javascript:/i.test(node.getAttribute(attribute) ?? "")) active.add("a javascript: URL");
        }
      }
    }
    const attribute = removed.attribute?.name.toLowerCase();
    if (attribute?.startsWith("on")) active.add(attribute);
  }
  if (active.size > 0) {
    refuse(
      `The SVG logo contains script (${[...active].slice(0, 4).join(", ")}), which a logo may not carry. Remove it or upload a PNG.`,
      "LOGO_UNSAFE",
    );
  }
  const root = fragment.firstElementChild;
  if (!root || root.nodeName.toLowerCase() !== "svg" || fragment.childElementCount !== 1) {
    refuse("The file is not an SVG image: it must have one <svg> element at its root.");
  }
  const xml = serializer.serializeToString(root);
  const styleReference = /@import/i.test(xml) || EXTERNAL_URL.test(xml);
  if (external.length > 0 || styleReference) {
    refuse(
      `The SVG logo refers to other files (${external[0] ?? "a style that loads a URL"}); a logo must be self-contained. Embed the image or upload a PNG.`,
      "LOGO_UNSAFE",
    );
  }
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n${xml}\n`, "utf8");
}

function asText(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * A logo upload as stored and served: decided by its content, never by its name or Content-Type. A PNG is kept
 * as it is; an SVG is sanitised; anything else is refused with what it is.
 */
export function checkLogo(bytes: Buffer): CheckedLogo {
  if (bytes.length === 0) refuse("The logo file is empty.");
  if (bytes.length > LOGO_MAX_BYTES) logoTooLarge(bytes.length);
  const text = asText(bytes);
  if (text !== undefined && /<svg[\s>]/i.test(text) && /^(\uFEFF)?\s*</.test(text)) {
    const svg = checkSvg(text);
    return { bytes: svg, type: "image/svg+xml", sha256: createHash("sha256").update(svg).digest("hex") };
  }
  let kind: { type?: string | undefined; width?: number | undefined; height?: number | undefined };
  try {
    kind = imageSize(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
  } catch {
    refuse("The file is not a PNG or SVG image. Upload the logo as PNG or SVG.");
  }
  if (kind.type !== "png") {
    refuse(
      `The file is a ${(kind.type ?? "different").toUpperCase()} image; the logo must be a PNG or SVG file, whatever its name.`,
    );
  }
  if (!kind.width || !kind.height || kind.width > MAX_SIDE_PX || kind.height > MAX_SIDE_PX) {
    refuse(
      `The PNG is ${kind.width ?? 0}×${kind.height ?? 0} pixels; a logo may be at most 4096 pixels on a side.`,
    );
  }
  return { bytes, type: "image/png", sha256: createHash("sha256").update(bytes).digest("hex") };
}
