import type { ReactNode } from "react";

import type { TClient } from "@portal/contracts";

import { clientUi, employeeUi } from "../utils/kinds";
import { EditPersonPage } from "./edit-person-page";

/** Edit Client and Edit Employee (spec §2). */
export const EditClientPage = ({ sections }: { sections?: (client: TClient) => ReactNode }) => (
  <EditPersonPage kind={clientUi} sections={sections} />
);
export const EditEmployeePage = () => <EditPersonPage kind={employeeUi} />;
