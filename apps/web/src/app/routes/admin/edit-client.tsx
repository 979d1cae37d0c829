import { ClientDelegatesSection } from "@/features/delegates/components/client-delegates-section";
import { ClientHousehold } from "@/features/households/components/client-household";
import { EditClientPage } from "@/features/people/components/edit-screens";

/** /admin/edit-client: the people feature's Edit Client, with the client's household and people with access. */
export function Component() {
  return (
    <EditClientPage
      sections={(client) => (
        <>
          <ClientHousehold cId={client.c_id} />
          <ClientDelegatesSection
            cId={client.c_id}
            clientName={`${client.first_name} ${client.last_name}`}
            workbookIds={client.workbook_ids}
          />
        </>
      )}
    />
  );
}
