import { describe, expect, it } from "vitest";

import { ALL_FIELDS_REQUIRED } from "@portal/contracts";

import { FIELD_REQUIRED, fieldError, hasMissingFields } from "../form-errors";

describe("form error helpers", () => {
  it("says 'All fields are required.' once for the form and names each blank field", () => {
    expect(hasMissingFields({ email: { type: "custom", message: ALL_FIELDS_REQUIRED } })).toBe(true);
    expect(hasMissingFields({ email: { type: "custom", message: "Enter a valid email address." } })).toBe(
      false,
    );
    expect(hasMissingFields({})).toBe(false);
    expect(fieldError(ALL_FIELDS_REQUIRED)).toBe(FIELD_REQUIRED);
    expect(fieldError("Enter a valid email address.")).toBe("Enter a valid email address.");
    expect(fieldError(undefined)).toBeUndefined();
  });
});
