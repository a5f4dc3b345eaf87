import styles from "../domains.module.css";
import type { RegistrationForm } from "../lib/registration";
import { TextField } from "./TextField";

type Change = (key: keyof RegistrationForm, value: string) => void;

function NumberField(props: {
  form: RegistrationForm;
  field: keyof RegistrationForm;
  label: string;
  onChange: Change;
  hint?: string;
  decimal?: boolean;
}) {
  return (
    <TextField
      type="number"
      label={props.label}
      value={props.form[props.field]}
      onChange={(v) => props.onChange(props.field, v)}
      min={props.decimal ? undefined : 0}
      step={props.decimal ? "any" : 1}
      inputMode={props.decimal ? "decimal" : "numeric"}
      {...(props.hint ? { hint: props.hint } : {})}
    />
  );
}

/** The registration's limits, task ranges and timeouts, shown with their defaults; most registrations keep them. */
export function AdvancedFields({ form, onChange }: { form: RegistrationForm; onChange: Change }) {
  const field = (key: keyof RegistrationForm, label: string, hint?: string, decimal?: boolean) => (
    <NumberField
      form={form}
      field={key}
      label={label}
      onChange={onChange}
      {...(hint ? { hint } : {})}
      {...(decimal ? { decimal } : {})}
    />
  );
  return (
    <details className={styles.advanced}>
      <summary>Advanced</summary>
      <fieldset>
        <legend>Limits</legend>
        <div className={styles.fieldGrid}>
          {field("concurrency", "Concurrency", "episodes open at once")}
          {field("maxSteps", "Max steps", "per episode")}
          {field("successReward", "Success reward", "an episode ending with at least this succeeded", true)}
        </div>
      </fieldset>
      <fieldset>
        <legend>Task ranges (the environment's own task numbers)</legend>
        <div className={styles.rangeGrid}>
          {field("trainFirst", "Train: first")}
          {field("trainCount", "Train: count")}
          {field("testFirst", "Test: first")}
          {field("testCount", "Test: count")}
        </div>
      </fieldset>
      <fieldset>
        <legend>Instruction</legend>
        <TextField
          label="Instruction pattern"
          value={form.instructionPattern}
          onChange={(v) => onChange("instructionPattern", v)}
          placeholder="Ticket: (.*)"
          hint="a regular expression on the first observation; its first group is the task's instruction (blank: the whole observation, or the protocol's own)"
        />
      </fieldset>
      <fieldset>
        <legend>Timeouts (milliseconds)</legend>
        <div className={styles.fieldGrid}>
          {field("resetTimeoutMs", "Reset")}
          {field("stepTimeoutMs", "Step")}
          {field("downAfterMs", "Down after", "retried this long before a run fails")}
        </div>
      </fieldset>
    </details>
  );
}
