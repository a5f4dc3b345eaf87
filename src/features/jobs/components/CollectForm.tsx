"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { REAL_DOMAIN_LABELS, REAL_DOMAIN_NAMES, type RealDomainName } from "@/core/envs/names";
import { useTRPC } from "@/trpc/react";

/** A job that plays a real environment with a chosen policy and stores the episodes as offline data. */
export function CollectForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [domain, setDomain] = useState<RealDomainName>("shop");
  const [policy, setPolicy] = useState<"expert" | "random" | "noisy">("expert");
  const [episodes, setEpisodes] = useState(50);
  const collect = useMutation(
    trpc.jobs.collect.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.jobs.list.queryKey() }),
    }),
  );
  return (
    <section className="panel" aria-label="Collect offline data">
      <h2>Collect offline data from a real environment</h2>
      <div className="filters">
        <label className="field">
          Domain
          <select value={domain} onChange={(e) => setDomain(e.target.value as RealDomainName)}>
            {REAL_DOMAIN_NAMES.map((name) => (
              <option key={name} value={name}>
                {REAL_DOMAIN_LABELS[name]}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Policy
          <select value={policy} onChange={(e) => setPolicy(e.target.value as "expert" | "random" | "noisy")}>
            <option value="expert">expert</option>
            <option value="noisy">ε-noisy expert</option>
            <option value="random">random</option>
          </select>
        </label>
        <label className="field">
          Episodes
          <input
            type="number"
            min={1}
            max={100000}
            value={episodes}
            onChange={(e) => setEpisodes(Number(e.target.value))}
          />
        </label>
        <button
          type="button"
          className="primary"
          disabled={collect.isPending}
          onClick={() =>
            collect.mutate({ domain, policy, episodes, split: "train", epsilon: 0.3, seed: 0, offset: 0 })
          }
        >
          Collect
        </button>
      </div>
      {collect.error ? <div className="error">{collect.error.message}</div> : null}
    </section>
  );
}
