import { hasPhase, RUN_METHODS } from "@/core/train/methods";
import type { DomainInfo } from "@/server/domains/domains";
import type { FieldDef } from "./configForm";

type DomainOption = Pick<DomainInfo, "name" | "label" | "trainable" | "reason">;

/**
 * A field as the launch form shows it: the domain menu lists the imported domains too (one that cannot be
 * trained in, disabled, says why); in an imported domain the methods that need a real environment are disabled.
 */
export function shownField(
  field: FieldDef,
  domains: readonly DomainOption[] | undefined,
  imported: boolean,
): FieldDef {
  if (field.kind.type !== "enum") return field;
  if (field.path === "domain" && domains)
    return {
      ...field,
      kind: {
        type: "enum",
        options: domains.map((d) => ({
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
}
