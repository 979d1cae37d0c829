import { describe, expect, it } from "vitest";

import { isSelected, nextActiveIndex, removeOption, selectionSummary, toggleOption } from "../multi-select";

const olivia = { value: 1, label: "Olivia Bennett" };
const marcus = { value: 2, label: "Marcus Chen" };

describe("selectionSummary", () => {
  it("reads the spec's texts", () => {
    expect(selectionSummary(0, "client")).toBe("Select clients...");
    expect(selectionSummary(1, "client")).toBe("1 client(s) selected");
    expect(selectionSummary(12, "workbook")).toBe("12 workbook(s) selected");
  });
});

describe("toggleOption / removeOption", () => {
  it("adds in the order chosen and removes by value", () => {
    const one = toggleOption([], marcus);
    const two = toggleOption(one, olivia);
    expect(two.map((o) => o.value)).toEqual([2, 1]);
    expect(isSelected(two, 1)).toBe(true);
    // Toggling a chosen option (even a different object with the same value) removes it.
    expect(toggleOption(two, { ...olivia, label: "renamed" }).map((o) => o.value)).toEqual([2]);
    expect(removeOption(two, 2)).toEqual([olivia]);
    expect(removeOption(two, 99)).toEqual(two);
  });

  it("keeps extra fields of the option (the workbook's team)", () => {
    const chosen = toggleOption([], { value: 3, label: "Tax Center", team: "Tax Clients" });
    expect(chosen[0]?.team).toBe("Tax Clients");
  });
});

describe("nextActiveIndex", () => {
  it("moves with the arrows and stops at the ends", () => {
    expect(nextActiveIndex(-1, "ArrowDown", 3)).toBe(0);
    expect(nextActiveIndex(0, "ArrowDown", 3)).toBe(1);
    expect(nextActiveIndex(2, "ArrowDown", 3)).toBe(2);
    expect(nextActiveIndex(-1, "ArrowUp", 3)).toBe(2);
    expect(nextActiveIndex(1, "ArrowUp", 3)).toBe(0);
    expect(nextActiveIndex(0, "ArrowUp", 3)).toBe(0);
  });

  it("jumps with Home/End and PageUp/PageDown", () => {
    expect(nextActiveIndex(5, "Home", 30)).toBe(0);
    expect(nextActiveIndex(5, "End", 30)).toBe(29);
    expect(nextActiveIndex(5, "PageDown", 30)).toBe(15);
    expect(nextActiveIndex(25, "PageDown", 30)).toBe(29);
    expect(nextActiveIndex(5, "PageUp", 30)).toBe(0);
    expect(nextActiveIndex(-1, "PageDown", 30)).toBe(10);
  });

  it("has nothing to activate in an empty list, and clamps when the list shrank", () => {
    expect(nextActiveIndex(3, "ArrowDown", 0)).toBe(-1);
    expect(nextActiveIndex(7, "x", 3)).toBe(2);
  });
});
