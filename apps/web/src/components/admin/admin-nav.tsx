import {
  BriefcaseIcon,
  ChartColumnIcon,
  HouseIcon,
  PaletteIcon,
  RefreshCwIcon,
  ShieldCheckIcon,
  UsersIcon,
} from "lucide-react";
import { useMatch } from "react-router";

import { SidebarLink } from "@/components/layouts/shell-layout";

/** Admin sidebar: the three back-office lists, the households, the BI sync queue, the audit log and the firm's settings. */
export function AdminNav({ collapsed }: { collapsed: boolean }) {
  // /admin itself shows the client list.
  const atIndex = useMatch("/admin") !== null;
  return (
    <nav aria-label="Administration">
      <ul className="space-y-1">
        <li>
          <SidebarLink
            to="/admin/client-list"
            icon={<UsersIcon className="size-5" />}
            label="Clients"
            collapsed={collapsed}
            highlighted={atIndex}
          />
        </li>
        <li>
          <SidebarLink
            to="/admin/employee-list"
            icon={<BriefcaseIcon className="size-5" />}
            label="Employees"
            collapsed={collapsed}
          />
        </li>
        <li>
          <SidebarLink
            to="/admin/workbook-list"
            icon={<ChartColumnIcon className="size-5" />}
            label="Workbooks"
            collapsed={collapsed}
          />
        </li>
        <li>
          <SidebarLink
            to="/admin/households"
            icon={<HouseIcon className="size-5" />}
            label="Households"
            collapsed={collapsed}
          />
        </li>
        <li>
          <SidebarLink
            to="/admin/sync"
            icon={<RefreshCwIcon className="size-5" />}
            label="BI sync"
            collapsed={collapsed}
          />
        </li>
        <li>
          <SidebarLink
            to="/admin/audit"
            icon={<ShieldCheckIcon className="size-5" />}
            label="Audit log"
            collapsed={collapsed}
          />
        </li>
        <li>
          <SidebarLink
            to="/admin/settings"
            icon={<PaletteIcon className="size-5" />}
            label="Firm settings"
            collapsed={collapsed}
          />
        </li>
      </ul>
    </nav>
  );
}
