import { useMatch } from "react-router";

import { SidebarLink } from "@/components/layouts/shell-layout";
import { BriefcaseIcon, ChartIcon, ShieldIcon, UsersIcon } from "@/components/ui/icons";

import { PaletteIcon, RetryIcon } from "./admin-icons";

/** Admin sidebar: the three back-office lists, the BI sync queue, the audit log and the firm's settings. */
export function AdminNav({ collapsed }: { collapsed: boolean }) {
  // /admin itself shows the client list.
  const atIndex = useMatch("/admin") !== null;
  return (
    <nav aria-label="Administration">
      <ul className="space-y-1">
        <li>
          <SidebarLink
            to="/admin/client-list"
            icon={<UsersIcon />}
            label="Clients"
            collapsed={collapsed}
            highlighted={atIndex}
          />
        </li>
        <li>
          <SidebarLink
            to="/admin/employee-list"
            icon={<BriefcaseIcon />}
            label="Employees"
            collapsed={collapsed}
          />
        </li>
        <li>
          <SidebarLink
            to="/admin/workbook-list"
            icon={<ChartIcon />}
            label="Workbooks"
            collapsed={collapsed}
          />
        </li>
        <li>
          <SidebarLink to="/admin/sync" icon={<RetryIcon />} label="BI sync" collapsed={collapsed} />
        </li>
        <li>
          <SidebarLink to="/admin/audit" icon={<ShieldIcon />} label="Audit log" collapsed={collapsed} />
        </li>
        <li>
          <SidebarLink
            to="/admin/settings"
            icon={<PaletteIcon />}
            label="Firm settings"
            collapsed={collapsed}
          />
        </li>
      </ul>
    </nav>
  );
}
