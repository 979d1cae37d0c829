import { ChartIcon } from "@/components/ui/icons";

/**
 * The sidebar's workbook section. The list of the user's workbooks arrives with the workbook issue; until
 * then the section says there are none.
 */
export function WorkbookNav({ collapsed }: { collapsed: boolean }) {
  return (
    <nav aria-label="Workbooks">
      <h2
        className={
          collapsed ? "sr-only" : "px-2.5 pb-2 text-xs font-semibold tracking-wider text-navy-300 uppercase"
        }
      >
        Workbooks
      </h2>
      {collapsed ? (
        <span
          className="flex h-10 items-center justify-center text-navy-400"
          title="No workbooks assigned yet."
        >
          <ChartIcon />
        </span>
      ) : (
        <p className="px-2.5 text-sm text-navy-300">No workbooks assigned yet.</p>
      )}
    </nav>
  );
}
