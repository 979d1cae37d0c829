import { describe, expect, it } from "vitest";

import { DEMO_WORKBOOKS } from "@portal/contracts/demo";
import { workbookLabel } from "@portal/contracts";

import { selectWorkbook, workbookInitials } from "../utils/select-workbook";

const workbooks = DEMO_WORKBOOKS.map((w, index) => ({
  id: index + 1,
  workbook_name: w.workbookName,
  team_name: w.teamName,
}));
const [portfolio, tax] = workbooks;

describe("workbookLabel (sidebar label, from @portal/contracts)", () => {
  it("keeps the name up to the last hyphen, hyphens read as spaces", () => {
    expect(workbooks.map((w) => workbookLabel(w.workbook_name))).toEqual([
      "Portfolio Overview",
      "Tax Center",
      "Income and Fees",
    ]);
  });

  it("leaves a name without a hyphen as it is", () => {
    expect(workbookLabel("Overview")).toBe("Overview");
  });
});

describe("selectWorkbook", () => {
  it("picks the workbook named in the URL", () => {
    expect(selectWorkbook(workbooks, tax!.workbook_name)).toBe(tax);
  });

  it("falls back to the first for / and for a name that is not the person's", () => {
    expect(selectWorkbook(workbooks, undefined)).toBe(portfolio);
    expect(selectWorkbook(workbooks, "not-a-real-one")).toBe(portfolio);
    // The label alone is not a workbook name.
    expect(selectWorkbook(workbooks, "Tax-Center")).toBe(portfolio);
  });

  it("has nothing to show when the person has no workbooks", () => {
    expect(selectWorkbook([], undefined)).toBe(null);
    expect(selectWorkbook([], tax!.workbook_name)).toBe(null);
  });
});

describe("workbookInitials", () => {
  it("gives two letters for the collapsed sidebar", () => {
    expect(workbookInitials("Portfolio Overview")).toBe("PO");
    expect(workbookInitials("Income and Fees")).toBe("IF");
    expect(workbookInitials("Tax")).toBe("TA");
    expect(workbookInitials("")).toBe("?");
  });
});
