import type { FieldDef, FieldValue } from "../configForm";
import styles from "../runs.module.css";

interface Props {
  field: FieldDef;
  value: FieldValue | undefined;
  onChange: (v: FieldValue) => void;
}

/** The control of one setting, by its kind: a checkbox, a menu, or text (numbers typed as text). */
export function FieldInput({ field, value, onChange }: Props) {
  const id = `field-${field.path}`;
  const described = `hint-${field.path} error-${field.path}`;
  if (field.kind.type === "bool")
    return (
      <input
        id={id}
        type="checkbox"
        className={styles.checkbox}
        aria-describedby={described}
        checked={value === true}
        onChange={(e) => onChange(e.target.checked)}
      />
    );
  if (field.kind.type === "enum")
    return (
      <select
        id={id}
        aria-describedby={described}
        value={String(value)}
        onChange={(e) => onChange(e.target.value)}
      >
        {field.kind.options.map((o) => (
          <option key={o.value} value={o.value} disabled={o.disabled}>
            {o.label}
          </option>
        ))}
      </select>
    );
  if (field.kind.type === "text")
    return (
      <input
        id={id}
        type="text"
        aria-describedby={described}
        value={String(value ?? "")}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  return (
    <input
      id={id}
      // Text with a numeric keyboard: a number input would hide what was typed when it is not a number.
      type="text"
      inputMode={field.kind.type === "int" ? "numeric" : "decimal"}
      className="mono"
      aria-describedby={described}
      value={String(value ?? "")}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
