import { describe, expect, it } from "vitest";

import { workbookLabel } from "../utils/workbook-label";

describe("workbookLabel", () => {
  it("keeps the name up to the last hyphen, hyphens read as spaces", () => {
    expect(workbookLabel("Tax-Center-hPiZspmSJMAnf8GyCctPAE")).toBe("Tax Center");
    expect(workbookLabel("Portfolio-wBUBiChqcA6De2yMJGx4YJ")).toBe("Portfolio");
  });

  it("leaves a name without a hyphen as it is", () => {
    expect(workbookLabel("Overview")).toBe("Overview");
  });
});
