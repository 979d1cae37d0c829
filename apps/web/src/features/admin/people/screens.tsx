import { AddPersonPage } from "./add-person-page";
import { EditPersonPage } from "./edit-person-page";
import { clientUi, employeeUi } from "./kinds";
import { PersonListPage } from "./person-list-page";

/** The people screens of the route table (spec §2), one of each for clients and for employees. */
export const ClientListPage = () => <PersonListPage kind={clientUi} />;
export const AddClientPage = () => <AddPersonPage kind={clientUi} />;
export const EditClientPage = () => <EditPersonPage kind={clientUi} />;
export const EmployeeListPage = () => <PersonListPage kind={employeeUi} />;
export const AddEmployeePage = () => <AddPersonPage kind={employeeUi} />;
export const EditEmployeePage = () => <EditPersonPage kind={employeeUi} />;
