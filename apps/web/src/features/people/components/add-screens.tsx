import { clientUi, employeeUi } from "../utils/kinds";
import { AddPersonPage } from "./add-person-page";

/** Add Client and Add Employee (spec §2). */
export const AddClientPage = () => <AddPersonPage kind={clientUi} />;
export const AddEmployeePage = () => <AddPersonPage kind={employeeUi} />;
