import type { FlaggedStep } from "../types";
import { FlaggedRow } from "./FlaggedRow";

/** The page of flagged steps; when there is none, why (filters, or nothing flagged yet) and how to flag one. */
export function FlaggedTable({ steps, filtered }: { steps: FlaggedStep[] | undefined; filtered: boolean }) {
  return (
    <table className="grid" aria-label="Flagged steps">
      <thead>
        <tr>
          <th>Step</th>
          <th>Episode</th>
          <th>Flag</th>
          <th>Against the real answer</th>
          <th>Flagged</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {steps?.map((s) => (
          <FlaggedRow key={s.id} step={s} />
        ))}
        {steps && steps.length === 0 ? (
          <tr>
            <td colSpan={6} className="hint">
              No flagged steps{filtered ? " match these filters" : " yet"}. Flag a step from its episode with{" "}
              <kbd>f</kbd>.
            </td>
          </tr>
        ) : null}
      </tbody>
    </table>
  );
}
