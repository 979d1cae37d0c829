import { CheckIcon, ChevronDownIcon, SearchIcon, XIcon } from "lucide-react";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import type { FocusEvent, KeyboardEvent, RefObject } from "react";

import { cn } from "@/components/ui/cn";
import { controlClasses } from "@/components/ui/field";
import {
  isSelected,
  nextActiveIndex,
  removeOption,
  selectionSummary,
  toggleOption,
} from "@/lib/multi-select";
import type { TOption } from "@/lib/multi-select";

type TMultiSelectProps<T extends TOption> = {
  /** The field's label, e.g. 'Assign Clients'. */
  label: string;
  /** Singular noun of the items: 'client' → 'Select clients...' / '2 client(s) selected'. */
  noun: string;
  selected: ReadonlyArray<T>;
  onChange: (selected: T[]) => void;
  /** The options for the current search text (the parent searches, usually on the server). */
  options: ReadonlyArray<T>;
  search: string;
  onSearchChange: (search: string) => void;
  /** Under the options: 'Loading...', a load error, 'No clients found.', or how many more there are. */
  status?: string | undefined;
  statusTone?: "neutral" | "error";
  hint?: string | undefined;
  disabled?: boolean;
  onOpenChange?: (open: boolean) => void;
};

/** The element ids of one multi-select, which its parts refer to each other by. */
function useIds() {
  const id = useId();
  return useMemo(
    () => ({
      label: `${id}-label`,
      trigger: `${id}-trigger`,
      summary: `${id}-summary`,
      hint: `${id}-hint`,
      panel: `${id}-panel`,
      listbox: `${id}-listbox`,
      option: (value: number) => `${id}-option-${value}`,
    }),
    [id],
  );
}

type TIds = ReturnType<typeof useIds>;

/**
 * A multi-select dropdown after the WAI-ARIA combobox pattern: the button opens a panel with a search
 * box (role=combobox) that owns a listbox (aria-multiselectable) through aria-activedescendant. Up/Down
 * and PageUp/PageDown move through the options, Enter toggles one, Escape closes and returns to the
 * button, Tab moves on. Chosen items show as chips below, each with a Remove button.
 */
export function MultiSelect<T extends TOption>({
  label,
  noun,
  selected,
  onChange,
  options,
  search,
  onSearchChange,
  status,
  statusTone = "neutral",
  hint,
  disabled = false,
  onOpenChange,
}: TMultiSelectProps<T>) {
  const ids = useIds();
  const triggerRef = useRef<HTMLButtonElement>(null);
  const dropdown = useDropdown({ ids, triggerRef, options, selected, onChange, onOpenChange });
  const { open, setOpen } = dropdown;

  // Focus left the whole control (a click elsewhere, Shift+Tab): close.
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (open && !event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
  };

  return (
    <div className="space-y-1.5">
      <span id={ids.label} className="block text-sm font-medium text-navy-900">
        {label}
      </span>
      <div className="relative" onBlur={onBlur}>
        <button
          ref={triggerRef}
          id={ids.trigger}
          type="button"
          disabled={disabled}
          aria-haspopup="listbox"
          aria-expanded={open}
          aria-controls={open ? ids.panel : undefined}
          aria-labelledby={`${ids.label} ${ids.summary}`}
          aria-describedby={hint ? ids.hint : undefined}
          onClick={() => setOpen(!open)}
          onKeyDown={dropdown.onTriggerKeyDown}
          className={cn(
            controlClasses,
            "flex h-11 items-center justify-between gap-2 border-slate-300 text-left focus:border-emerald-600 disabled:cursor-not-allowed disabled:bg-slate-50",
            open && "border-emerald-600 ring-3 ring-emerald-500/30",
          )}
        >
          <span id={ids.summary} className={cn("truncate", selected.length === 0 && "text-slate-500")}>
            {selectionSummary(selected.length, noun)}
          </span>
          <ChevronDownIcon
            className={cn("size-4 shrink-0 text-slate-500 transition-transform", open && "rotate-180")}
          />
        </button>

        {open ? (
          <OptionsPanel
            ids={ids}
            noun={noun}
            options={options}
            selected={selected}
            onChange={onChange}
            search={search}
            onSearchChange={(value) => {
              onSearchChange(value);
              dropdown.setActive(-1);
            }}
            activeIndex={dropdown.activeIndex}
            onActivate={dropdown.setActive}
            onSearchKeyDown={dropdown.onSearchKeyDown}
            status={status}
            statusTone={statusTone}
          />
        ) : null}
      </div>
      {hint ? (
        <p id={ids.hint} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {selected.length > 0 ? (
        <SelectedChips
          noun={noun}
          selected={selected}
          disabled={disabled}
          onRemove={(value) => {
            onChange(removeOption(selected, value));
            // The chip and its button are gone: keep the focus in the control.
            triggerRef.current?.focus();
          }}
        />
      ) : null}
    </div>
  );
}

/** Whether the panel is open, the option the keys have moved to, and what the keys do. */
function useDropdown<T extends TOption>({
  ids,
  triggerRef,
  options,
  selected,
  onChange,
  onOpenChange,
}: {
  ids: TIds;
  triggerRef: RefObject<HTMLButtonElement | null>;
  options: ReadonlyArray<T>;
  selected: ReadonlyArray<T>;
  onChange: (selected: T[]) => void;
  onOpenChange: ((open: boolean) => void) | undefined;
}) {
  const [open, setOpenState] = useState(false);
  const [active, setActive] = useState(-1);
  const activeIndex = Math.min(active, options.length - 1);
  const activeOption = activeIndex >= 0 ? options[activeIndex] : undefined;

  const setOpen = (next: boolean) => {
    setOpenState(next);
    setActive(-1);
    onOpenChange?.(next);
  };

  useEffect(() => {
    if (!open || !activeOption) return;
    document.getElementById(ids.option(activeOption.value))?.scrollIntoView({ block: "nearest" });
  }, [open, activeOption, ids]);

  const closeAndReturn = () => {
    setOpen(false);
    triggerRef.current?.focus();
  };

  const onSearchKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case "ArrowDown":
      case "ArrowUp":
      case "PageDown":
      case "PageUp":
        event.preventDefault();
        setActive(nextActiveIndex(activeIndex, event.key, options.length));
        break;
      case "Enter":
        // Never submits the surrounding form.
        event.preventDefault();
        if (activeOption) onChange(toggleOption(selected, activeOption));
        break;
      case "Escape":
        event.preventDefault();
        // Only this dropdown closes, not a dialog around it.
        event.stopPropagation();
        closeAndReturn();
        break;
      case "Tab":
        setOpen(false);
        break;
    }
  };

  const onTriggerKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (!open && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
      event.preventDefault();
      setOpen(true);
    }
  };

  return { open, setOpen, activeIndex, setActive, onSearchKeyDown, onTriggerKeyDown };
}

/** The open dropdown: the search box, the options for its text, and the status line under them. */
function OptionsPanel<T extends TOption>({
  ids,
  noun,
  options,
  selected,
  onChange,
  search,
  onSearchChange,
  activeIndex,
  onActivate,
  onSearchKeyDown,
  status,
  statusTone,
}: {
  ids: TIds;
  noun: string;
  options: ReadonlyArray<T>;
  selected: ReadonlyArray<T>;
  onChange: (selected: T[]) => void;
  search: string;
  onSearchChange: (search: string) => void;
  activeIndex: number;
  onActivate: (index: number) => void;
  onSearchKeyDown: (event: KeyboardEvent<HTMLInputElement>) => void;
  status: string | undefined;
  statusTone: "neutral" | "error";
}) {
  const activeOption = activeIndex >= 0 ? options[activeIndex] : undefined;
  return (
    <div
      id={ids.panel}
      // Clicks inside the panel keep the focus in the search box.
      onMouseDown={(event) => {
        if (!(event.target instanceof HTMLInputElement)) event.preventDefault();
      }}
      className="absolute inset-x-0 top-full z-30 mt-1 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-lg"
    >
      <div className="relative border-b border-slate-100 p-2">
        <SearchIcon className="pointer-events-none absolute top-1/2 left-5 size-4 -translate-y-1/2 text-slate-400" />
        <input
          type="text"
          role="combobox"
          aria-label={`Search ${noun}s`}
          aria-expanded="true"
          aria-controls={ids.listbox}
          aria-autocomplete="list"
          aria-activedescendant={activeOption ? ids.option(activeOption.value) : undefined}
          value={search}
          onChange={(event) => onSearchChange(event.target.value)}
          onKeyDown={onSearchKeyDown}
          placeholder={`Search ${noun}s`}
          autoComplete="off"
          maxLength={100}
          // The panel opens on request, so moving focus into its search box is expected.
          autoFocus
          // slate-500 (4.76:1 on white): the shared placeholder colour is too light for a text people must read.
          className={cn(controlClasses, "h-10 border-slate-300 pl-9 placeholder:text-slate-500!")}
        />
      </div>
      <ul
        id={ids.listbox}
        role="listbox"
        aria-multiselectable="true"
        aria-labelledby={ids.label}
        className="max-h-60 overflow-y-auto p-1"
      >
        {options.map((option, index) => {
          const chosen = isSelected(selected, option.value);
          return (
            <li
              key={option.value}
              id={ids.option(option.value)}
              role="option"
              aria-selected={chosen}
              onClick={() => onChange(toggleOption(selected, option))}
              onMouseMove={() => index !== activeIndex && onActivate(index)}
              className={cn(
                "flex cursor-pointer items-center gap-3 rounded-lg px-3 py-2 text-sm select-none",
                index === activeIndex ? "bg-navy-50" : "hover:bg-slate-50",
              )}
            >
              <span
                aria-hidden="true"
                className={cn(
                  "flex size-4.5 shrink-0 items-center justify-center rounded border",
                  chosen ? "border-emerald-600 bg-emerald-600 text-white" : "border-slate-300 bg-white",
                )}
              >
                {chosen ? <CheckIcon className="size-3.5" strokeWidth="3" /> : null}
              </span>
              <span className="min-w-0">
                <span className="block truncate font-medium text-navy-950">{option.label}</span>
                {option.detail ? (
                  <span className="block truncate text-xs text-slate-500">{option.detail}</span>
                ) : null}
              </span>
            </li>
          );
        })}
      </ul>
      {status ? (
        <p
          role="status"
          className={cn(
            "border-t border-slate-100 px-3 py-2 text-xs",
            statusTone === "error" ? "text-red-700" : "text-slate-500",
          )}
        >
          {status}
        </p>
      ) : null}
    </div>
  );
}

/** The chosen items under the control, each with its Remove button. */
function SelectedChips<T extends TOption>({
  noun,
  selected,
  disabled,
  onRemove,
}: {
  noun: string;
  selected: ReadonlyArray<T>;
  disabled: boolean;
  onRemove: (value: number) => void;
}) {
  return (
    <ul aria-label={`Selected ${noun}s`} className="flex flex-wrap gap-2 pt-1">
      {selected.map((option) => (
        <li
          key={option.value}
          className="inline-flex max-w-full items-center gap-1 rounded-full bg-navy-50 py-1 pr-1 pl-3 text-sm font-medium text-navy-900 ring-1 ring-navy-100 ring-inset"
        >
          <span className="truncate">{option.label}</span>
          <button
            type="button"
            disabled={disabled}
            onClick={() => onRemove(option.value)}
            aria-label={`Remove ${option.label}`}
            className="flex size-6 shrink-0 items-center justify-center rounded-full text-navy-700 transition-colors hover:bg-navy-100 hover:text-navy-950"
          >
            <XIcon className="size-3.5" />
          </button>
        </li>
      ))}
    </ul>
  );
}
