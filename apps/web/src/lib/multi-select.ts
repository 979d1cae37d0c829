/** An item of a multi-select: `value` is the id that is sent, `label` what people read. */
export type TOption = { value: number; label: string; detail?: string | undefined };

/** Spec: the closed dropdown reads 'N client(s) selected', or 'Select clients...' while nothing is chosen. */
export function selectionSummary(count: number, noun: string): string {
  return count === 0 ? `Select ${noun}s...` : `${count} ${noun}(s) selected`;
}

export function isSelected(selected: ReadonlyArray<TOption>, value: number): boolean {
  return selected.some((option) => option.value === value);
}

/** Adds the option if it is not chosen yet, else removes it; the order of choosing is kept. */
export function toggleOption<T extends TOption>(selected: ReadonlyArray<T>, option: T): T[] {
  return isSelected(selected, option.value)
    ? selected.filter((chosen) => chosen.value !== option.value)
    : [...selected, option];
}

export function removeOption<T extends TOption>(selected: ReadonlyArray<T>, value: number): T[] {
  return selected.filter((chosen) => chosen.value !== value);
}

const PAGE_STEP = 10;

/**
 * The option that becomes active after a navigation key in the list (-1: none). Arrows stop at the ends
 * (no wrap-around, as in a native select); Home/End and PageUp/PageDown jump. Other keys: unchanged.
 */
export function nextActiveIndex(current: number, key: string, count: number): number {
  if (count === 0) return -1;
  const last = count - 1;
  switch (key) {
    case "ArrowDown":
      return current < 0 ? 0 : Math.min(current + 1, last);
    case "ArrowUp":
      return current < 0 ? last : Math.max(current - 1, 0);
    case "Home":
      return 0;
    case "End":
      return last;
    case "PageDown":
      return Math.min(Math.max(current, 0) + PAGE_STEP, last);
    case "PageUp":
      return Math.max(current - PAGE_STEP, 0);
    default:
      return Math.min(current, last);
  }
}
