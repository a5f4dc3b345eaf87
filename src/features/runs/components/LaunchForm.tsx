"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { isRealDomainName } from "@/core/envs/names";
import { hasPhase, RUN_METHODS } from "@/core/train/methods";
import { useTRPC } from "@/trpc/react";
import {
  changeValue,
  FIELDS,
  type FieldDef,
  type FieldErrors,
  type FieldValue,
  type FormValues,
  issuesToErrors,
  isUsed,
  parseForm,
  SECTIONS,
  toFormValues,
} from "../configForm";
import { DEFAULT_PRESET_ID, PRESETS, presetById } from "../presets";
import styles from "../runs.module.css";

const DOMAINS = [
  { domain: "shop", label: "shop (WebShop)" },
  { domain: "household", label: "household (ALFWorld)" },
] as const;

function initialValues(): FormValues {
  return toFormValues((presetById(DEFAULT_PRESET_ID) ?? (PRESETS[0] as (typeof PRESETS)[number])).config);
}

function FieldInput({
  field,
  value,
  onChange,
}: {
  field: FieldDef;
  value: FieldValue | undefined;
  onChange: (v: FieldValue) => void;
}) {
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

/** Every RunConfig setting, prefilled from a preset, validated with the server's schema before launch. */
export function LaunchForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [presetId, setPresetId] = useState(DEFAULT_PRESET_ID);
  const [values, setValues] = useState<FormValues>(initialValues);
  const [errors, setErrors] = useState<FieldErrors>({});
  const domains = useQuery(trpc.domains.list.queryOptions());
  const imported = !isRealDomainName(String(values.domain ?? ""));
  /**
   * The domain menu lists the imported domains too (one with too few logs, disabled, says why); in an imported
   * domain the methods that need a real environment are disabled.
   */
  const shown = (field: FieldDef): FieldDef => {
    if (field.kind.type !== "enum") return field;
    if (field.path === "domain" && domains.data)
      return {
        ...field,
        kind: {
          type: "enum",
          options: domains.data.map((d) => ({
            value: d.name,
            label: d.trainable ? d.label : `${d.label}: ${d.reason}`,
            disabled: !d.trainable,
          })),
        },
      };
    if (field.path === "method" && imported)
      return {
        ...field,
        kind: {
          type: "enum",
          options: field.kind.options.map((o) => {
            const method = RUN_METHODS.find((m) => m === o.value);
            return { ...o, disabled: method !== undefined && hasPhase(method, "real") };
          }),
        },
      };
    return field;
  };
  const create = useMutation(
    trpc.runs.create.mutationOptions({
      onSuccess: ({ runId }) => {
        void queryClient.invalidateQueries({ queryKey: trpc.runs.list.queryKey() });
        router.push(`/runs?launched=${runId}`);
      },
      onError: (e) => setErrors(e.data?.issues ? issuesToErrors(e.data.issues) : { "": e.message }),
    }),
  );

  const choosePreset = (id: string) => {
    const preset = presetById(id);
    if (!preset) return;
    setPresetId(id);
    setValues(toFormValues(preset.config));
    setErrors({});
  };
  const change = (path: string, v: FieldValue) => {
    setValues((old) => changeValue(old, path, v));
    setErrors(({ [path]: _gone, ...rest }) => rest);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseForm(values);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    create.mutate(parsed.config);
  };
  const problems = Object.keys(errors).length;

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label="Launch a run">
      <section className={`panel ${styles.presetBar}`}>
        <label className="field">
          Preset
          <select
            aria-label="Preset"
            value={presetId}
            onChange={(e) => choosePreset(e.target.value)}
            style={{ minWidth: 280 }}
          >
            {DOMAINS.map(({ domain, label }) => (
              <optgroup key={domain} label={label}>
                {PRESETS.filter((p) => p.domain === domain).map((p) => (
                  <option key={p.id} value={p.id}>
                    {domain} · {p.label}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </label>
        <p className="hint" style={{ margin: 0, maxWidth: 640 }}>
          Presets are the paper's methods, read from <span className="mono">configs/*.json</span>; the quick
          forms finish in minutes on a laptop. Settings a method does not read are dimmed.
        </p>
      </section>
      <div className={styles.sections}>
        {SECTIONS.map((section) => (
          <section key={section} className={`panel ${styles.section}`} aria-label={section}>
            <h2>{section}</h2>
            <div className={styles.fields}>
              {FIELDS.filter((f) => f.section === section).map((field) => {
                const error = errors[field.path];
                const used = isUsed(field, values);
                return (
                  <div
                    key={field.path}
                    className={`${styles.field} ${error ? styles.invalid : ""} ${used ? "" : styles.unused}`}
                    data-testid={`field-${field.path}`}
                  >
                    <label htmlFor={`field-${field.path}`}>{field.label}</label>
                    <FieldInput
                      field={shown(field)}
                      value={values[field.path]}
                      onChange={(v) => change(field.path, v)}
                    />
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
              })}
            </div>
          </section>
        ))}
      </div>
      {errors[""] ? <div className="error">{errors[""]}</div> : null}
      <div className={styles.submitBar}>
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? "Launching…" : "Launch run"}
        </button>
        {problems > 0 ? (
          <span className="hint" style={{ color: "var(--bad)" }} data-testid="form-problems">
            {problems === 1 ? "1 setting needs fixing" : `${problems} settings need fixing`}
          </span>
        ) : (
          <span className="hint">The run is queued for the worker; you can watch it on its page.</span>
        )}
      </div>
    </form>
  );
}
