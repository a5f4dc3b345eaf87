import type { HTMLInputTypeAttribute } from "react";

/** One labelled input of the register form, with its hint read out with it. */
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
  return (
    <label className="field" title={hint}>
      {label}
      <input
        type={type}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        spellCheck={false}
        {...input}
      />
      {hint ? <span className="hint">{hint}</span> : null}
    </label>
  );
}
