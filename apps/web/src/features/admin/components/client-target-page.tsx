import { Fragment } from "react";
import type { ReactNode } from "react";

import type { TClient } from "@portal/contracts";

import { useClientTarget } from "../api/find-client";
import { EditTargetState } from "./edit-target";

/**
 * A page about one client (`?id=<Client ID>`: Edit Client, View as client): the client from the navigation
 * state or looked up by its id; until then, or when there is none, the page says so with a way back to the list.
 * `children` is keyed by the client, so another client starts from a fresh page.
 */
export function ClientTargetPage({
  title,
  children,
}: {
  title: string;
  children: (client: TClient) => ReactNode;
}) {
  const { client, clientId, lookup } = useClientTarget();
  if (!client) {
    return (
      <EditTargetState
        title={title}
        target={clientId}
        lookup={lookup}
        noneSelected="No client selected. Choose one from the client list."
        loadFailed="Failed to load the client."
        listTo="/admin/client-list"
        listLabel="Back to clients"
      />
    );
  }
  return <Fragment key={client.c_id}>{children(client)}</Fragment>;
}
