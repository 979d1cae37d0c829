import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import type { TDelegate } from "@portal/contracts";

import { DelegateList } from "../components/delegate-list";
import { END_DATE, NOT_VIEWED_YET, workbookNames } from "../utils/delegate-text";

const invited: TDelegate = {
  id: 7,
  name: "Daniel Reyes",
  email: "daniel.reyes@example.com",
  status: "invited",
  all_workbooks: false,
  workbook_ids: [3],
  expires_at: "2027-03-31T23:59:59.999Z",
  invited_at: "2026-11-01T10:00:00.000Z",
  accepted_at: null,
  last_viewed_at: null,
};
const active: TDelegate = {
  ...invited,
  id: 8,
  name: "Grace Bennett",
  email: "grace@example.com",
  status: "active",
  all_workbooks: true,
  workbook_ids: [],
  expires_at: null,
};

const render = (onChange: ((delegate: TDelegate) => void) | null) =>
  renderToStaticMarkup(
    createElement(DelegateList, {
      delegates: [invited, active],
      names: workbookNames([{ id: 3, workbook_name: "Portfolio-Overview-4hT9" }]),
      label: "People with access to your workbooks",
      onChange,
      onRevoke: () => undefined,
    }),
  );

describe("the list of people with access", () => {
  it("shows each person's name, email, status, what they see, the end date and the last view", () => {
    const html = render(() => undefined);
    expect(html).toContain('aria-label="People with access to your workbooks"');
    for (const text of [
      "Daniel Reyes",
      "daniel.reyes@example.com",
      "Invited",
      "Portfolio Overview",
      END_DATE.format(new Date("2027-03-31T12:00:00Z")),
      NOT_VIEWED_YET,
      "Active",
      "All workbooks",
      "No end date",
    ]) {
      expect(html).toContain(text);
    }
  });

  it("names the person in each action for screen readers", () => {
    const html = render(() => undefined);
    expect(html).toContain('Change<span class="sr-only"> access for Daniel Reyes</span>');
    expect(html).toContain('Revoke<span class="sr-only"> access for Grace Bennett</span>');
  });

  it("offers Change only where changing is possible", () => {
    const html = render(null);
    expect(html).not.toContain("Change");
    expect(html).toContain("Revoke");
  });
});
