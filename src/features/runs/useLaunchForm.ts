"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { useTRPC } from "@/trpc/react";
import {
  changeValue,
  type FieldErrors,
  type FieldValue,
  type FormValues,
  issuesToErrors,
  parseForm,
  toFormValues,
} from "./configForm";
import { DEFAULT_PRESET_ID, PRESETS, presetById } from "./presets";

function initialValues(): FormValues {
  return toFormValues((presetById(DEFAULT_PRESET_ID) ?? (PRESETS[0] as (typeof PRESETS)[number])).config);
}

/**
 * The launch form's state: the preset it started from, the values as typed, and the errors of each field, from
 * the server's schema before launch or from the server after. A launched run opens its own page, which shows it starting.
 */
export function useLaunchForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [presetId, setPresetId] = useState(DEFAULT_PRESET_ID);
  const [values, setValues] = useState<FormValues>(initialValues);
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = useMutation(
    trpc.runs.create.mutationOptions({
      onSuccess: ({ runId }) => {
        void queryClient.invalidateQueries({ queryKey: trpc.runs.list.queryKey() });
        router.push(`/runs/${runId}`);
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
  return { presetId, values, errors, launching: create.isPending, choosePreset, change, submit };
}
