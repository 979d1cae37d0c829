import { EditPersonPage } from "./edit-person-page";
import { clientUi, employeeUi } from "./kinds";

/** Edit Client and Edit Employee (spec §2). */
export const EditClientPage = () => <EditPersonPage kind={clientUi} />;
export const EditEmployeePage = () => <EditPersonPage kind={employeeUi} />;
