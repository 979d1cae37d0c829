import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { EmailText } from "../list-view";

const render = (email: string) => renderToStaticMarkup(createElement(EmailText, { email }));

describe("EmailText", () => {
  it("offers line breaks after the '@' and the domain's dots, keeping the address's text", () => {
    expect(render("priya.raman@meridian-advisory.example")).toBe(
      '<span class="[overflow-wrap:anywhere]">priya.raman@<wbr/>meridian-advisory.<wbr/>example</span>',
    );
  });

  it("leaves anything without an '@' as it is", () => {
    expect(render("not-an-email")).toBe('<span class="[overflow-wrap:anywhere]">not-an-email</span>');
  });
});
