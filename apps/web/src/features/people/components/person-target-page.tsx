import { Fragment } from "react";
import type { ReactNode } from "react";

import { EditTargetState } from "@/components/admin/edit-target";
import { useEditTarget } from "@/lib/edit-state";

import { usePerson } from "../api/people";
import type { TPersonRow, TPersonUi } from "../utils/person-ui";

/**
 * The person a screen opened with `?id=<business ID>` is about (Edit Client, Edit Employee, View as client):
 * the one passed along in the navigation state (from the list or the edit screen), else looked up by the ID
 * in the address (a reload or a bookmark).
 */
export function usePersonTarget<R extends TPersonRow>(kind: TPersonUi<R>) {
  const { passed, key: businessId } = useEditTarget<R>({
    param: "id",
    stateKey: kind.kind,
    schema: kind.schemas.row,
    keyOf: kind.businessIdOf,
  });
  const lookup = usePerson(kind, businessId, passed);
  return { person: passed ?? lookup.data, businessId, lookup };
}

/**
 * A page about one person: until they are found, or when there is none, the page says so with a way back to
 * the list. `children` is keyed by the person, so another person starts from a fresh page.
 */
export function PersonTargetPage<R extends TPersonRow>({
  kind,
  title,
  children,
}: {
  kind: TPersonUi<R>;
  title: string;
  children: (person: R) => ReactNode;
}) {
  const { person, businessId, lookup } = usePersonTarget(kind);
  if (!person) {
    return (
      <EditTargetState
        title={title}
        target={businessId}
        lookup={lookup}
        noneSelected={`No ${kind.text.one} selected. Choose one from the ${kind.text.one} list.`}
        loadFailed={`Failed to load the ${kind.text.one}.`}
        listTo={kind.routes.list}
        listLabel={`Back to ${kind.text.plural.toLowerCase()}`}
      />
    );
  }
  return <Fragment key={kind.idOf(person)}>{children(person)}</Fragment>;
}
