import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { Switch } from "../switch";

const render = (checked: boolean) =>
  renderToStaticMarkup(
    createElement(Switch, {
      label: "Combined view",
      description: "Each member sees the accounts of every member of the household.",
      checked,
      onChange: () => undefined,
    }),
  );

describe("Switch", () => {
  it("is a switch named by its label and described by its explanation", () => {
    const html = render(false);
    const labelId = /<label id="([^"]+)"/.exec(html)?.[1];
    const descriptionId = /<p id="([^"]+)"/.exec(html)?.[1];
    expect(labelId).toBeTruthy();
    expect(html).toContain('role="switch"');
    expect(html).toContain(`aria-labelledby="${labelId}"`);
    expect(html).toContain(`aria-describedby="${descriptionId}"`);
  });

  it("tells its state by aria-checked and in words, not by colour alone", () => {
    expect(render(true)).toContain('aria-checked="true"');
    expect(render(true)).toContain(">On<");
    expect(render(false)).toContain('aria-checked="false"');
    expect(render(false)).toContain(">Off<");
  });
});
