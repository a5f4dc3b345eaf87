import { type HTMLInputTypeAttribute, useId } from "react";
import styles from "../domains.module.css";

/** One labelled input of the register form; its hint is its description, apart from its name. */
export function TextField({
  label,
  value,
  onChange,
  type = "text",
  hint,
  ...input
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: HTMLInputTypeAttribute;
  hint?: string;
  placeholder?: string;
  required?: boolean;
  autoComplete?: string;
  min?: number;
  step?: number | "any";
  inputMode?: "numeric" | "decimal" | "url" | "text";
}) {
  const hintId = useId();
  return (
    <div className={styles.field}>
      <label className="field">
        {label}
        <input
          type={type}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          spellCheck={false}
          aria-describedby={hint ? hintId : undefined}
          {...input}
        />
      </label>
      {hint ? (
        <span id={hintId} className="hint">
          {hint}
        </span>
      ) : null}
    </div>
  );
}
