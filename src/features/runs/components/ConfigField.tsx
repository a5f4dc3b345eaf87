import type { FieldDef, FieldValue } from "../configForm";
import styles from "../runs.module.css";
import { FieldInput } from "./FieldInput";

interface Props {
  field: FieldDef;
  value: FieldValue | undefined;
  error: string | undefined;
  /** Whether the chosen method reads this setting; one it does not is dimmed and says so. */
  used: boolean;
  onChange: (v: FieldValue) => void;
}

/** One setting of the launch form: its label, control, hint and error. */
export function ConfigField({ field, value, error, used, onChange }: Props) {
  return (
    <div
      className={`${styles.field} ${error ? styles.invalid : ""} ${used ? "" : styles.unused}`}
      data-testid={`field-${field.path}`}
    >
      <label htmlFor={`field-${field.path}`}>{field.label}</label>
      <FieldInput field={field} value={value} onChange={onChange} />
      <span id={`hint-${field.path}`} className={styles.fieldHint}>
        {used ? field.hint : `${field.hint} — not used by this method`}
      </span>
      {error ? (
        <span
          id={`error-${field.path}`}
          className={styles.fieldError}
          role="alert"
          data-testid={`field-error-${field.path}`}
        >
          {error}
        </span>
      ) : null}
    </div>
  );
}
