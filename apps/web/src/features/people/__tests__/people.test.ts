import { describe, expect, it } from "vitest";

import { namesOrNone } from "../utils/people";

describe("namesOrNone", () => {
  it("joins names with ', ' or says 'None'", () => {
    expect(namesOrNone([])).toBe("None");
    expect(
      namesOrNone([
        { first_name: "Priya", last_name: "Raman" },
        { first_name: "Sam", last_name: "Ortiz" },
      ]),
    ).toBe("Priya Raman, Sam Ortiz");
  });
});
