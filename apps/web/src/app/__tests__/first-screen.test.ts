import { readFileSync } from "node:fs";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { CheckingAuthentication } from "@/components/ui/spinner";

/** Markup with the whitespace Prettier puts between and inside tags taken out. */
const normalise = (html: string) =>
  html
    .replace(/>\s+</g, "><")
    .replace(/\s+/g, " ")
    .replace(/\s*(\/?)>/g, "$1>")
    .trim();

describe("the SPA's first screen", () => {
  it("is 'Checking authentication...' in index.html, exactly as React renders it (decision 015)", () => {
    const html = readFileSync(new URL("../../../index.html", import.meta.url), "utf8");
    const root = /<div id="first-screen">([\s\S]*)<\/div>\s*<div id="root"><\/div>/.exec(html)?.[1];
    expect(root).toBeDefined();
    expect(normalise(root ?? "")).toBe(
      normalise(renderToStaticMarkup(createElement(CheckingAuthentication))),
    );
  });
});
