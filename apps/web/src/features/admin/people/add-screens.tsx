import { AddPersonPage } from "./add-person-page";
import { clientUi, employeeUi } from "./kinds";

/** Add Client and Add Employee (spec §2). */
export const AddClientPage = () => <AddPersonPage kind={clientUi} />;
export const AddEmployeePage = () => <AddPersonPage kind={employeeUi} />;
