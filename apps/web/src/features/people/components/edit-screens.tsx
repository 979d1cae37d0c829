import { clientUi, employeeUi } from "../utils/kinds";
import { EditPersonPage } from "./edit-person-page";

/** Edit Client and Edit Employee (spec §2). */
export const EditClientPage = () => <EditPersonPage kind={clientUi} />;
export const EditEmployeePage = () => <EditPersonPage kind={employeeUi} />;
