"use client";

import { useQuery } from "@tanstack/react-query";
import { domainKindOf } from "@/features/domains/lib/domainKind";
import { useTRPC } from "@/trpc/react";
import { FIELDS, isUsed, SECTIONS } from "../configForm";
import { shownField } from "../launchFields";
import styles from "../runs.module.css";
import { useLaunchForm } from "../useLaunchForm";
import { ConfigField } from "./ConfigField";
import { PresetBar } from "./PresetBar";

/** Every RunConfig setting, prefilled from a preset, validated with the server's schema before launch. */
export function LaunchForm() {
  const trpc = useTRPC();
  const domains = useQuery(trpc.domains.list.queryOptions());
  const { presetId, values, errors, launching, choosePreset, change, submit } = useLaunchForm();
  const imported = domainKindOf(String(values.domain ?? ""), domains.data) === "imported";
  const problems = Object.keys(errors).length;

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label="Launch a run">
      <PresetBar presetId={presetId} onChoose={choosePreset} />
      <div className={styles.sections}>
        {SECTIONS.map((section) => (
          <section key={section} className={`panel ${styles.section}`} aria-label={section}>
            <h2>{section}</h2>
            <div className={styles.fields}>
              {FIELDS.filter((f) => f.section === section).map((field) => (
                <ConfigField
                  key={field.path}
                  field={shownField(field, domains.data, imported)}
                  value={values[field.path]}
                  error={errors[field.path]}
                  used={isUsed(field, values)}
                  onChange={(v) => change(field.path, v)}
                />
              ))}
            </div>
          </section>
        ))}
      </div>
      {errors[""] ? <div className="error">{errors[""]}</div> : null}
      <div className={styles.submitBar}>
        <button type="submit" className="primary" disabled={launching}>
          {launching ? "Launching…" : "Launch run"}
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
