import { Button } from "@/components/ui/button";

type TPaginationProps = {
  page: number;
  lastPage: number;
  rangeText: string;
  onPageChange: (page: number) => void;
  disabled: boolean;
};

export function Pagination({ page, lastPage, rangeText, onPageChange, disabled }: TPaginationProps) {
  return (
    <nav
      aria-label="Pagination"
      className="flex flex-col gap-3 border-t border-slate-200 px-4 py-3 sm:flex-row sm:items-center sm:justify-between"
    >
      <p aria-live="polite" className="text-sm text-slate-600">
        {rangeText}
      </p>
      <div className="flex gap-2">
        <Button
          variant="secondary"
          size="sm"
          disabled={disabled || page <= 1}
          onClick={() => onPageChange(page - 1)}
        >
          Previous
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={disabled || page >= lastPage}
          onClick={() => onPageChange(page + 1)}
        >
          Next
        </Button>
      </div>
    </nav>
  );
}
