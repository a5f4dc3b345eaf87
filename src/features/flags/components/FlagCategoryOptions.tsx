import { FLAG_CATEGORIES, FLAG_CATEGORY_LABELS } from "@/shared/enums";

/** One <option> per flag category, for the flag form and the flagged list's filter alike. */
export function FlagCategoryOptions() {
  return FLAG_CATEGORIES.map((c) => (
    <option key={c} value={c}>
      {FLAG_CATEGORY_LABELS[c]}
    </option>
  ));
}
