import { clientUi, employeeUi } from "../utils/kinds";
import { PersonListPage } from "./person-list-page";

/**
 * The people lists of the route table (spec §2), one per kind. Add and Edit are modules of their own
 * (`add-screens.tsx`, `edit-screens.tsx`), so a list does not load the forms' code.
 */
export const ClientListPage = () => <PersonListPage kind={clientUi} />;
export const EmployeeListPage = () => <PersonListPage kind={employeeUi} />;
