"use client";

import { useState } from "react";
import { useCan } from "@/features/auth/lib/useMe";
import styles from "../domains.module.css";
import type { Health, RemoteDomain } from "../types";
import { CheckNow } from "./CheckNow";
import { HealthLine } from "./HealthLine";
import { RemoveDomain } from "./RemoveDomain";

/** The later of two health answers: a check of a config-file domain is not stored, so only this page has it. */
function latest(stored: Health | null, checked: Health | null): Health | null {
  if (!stored || !checked) return stored ?? checked;
  return checked.at > stored.at ? checked : stored;
}

/** A remote registration as shown back (its token only said to exist), its health, and what may be done to it. */
export function RemoteDetails({ remote }: { remote: RemoteDomain }) {
  const [checked, setChecked] = useState<Health | null>(null);
  const mayCheck = useCan("data:import");
  const mayRemove = useCan("data:delete");
  return (
    <>
      <dl className={`kv ${styles.details}`}>
        <dt>URL</dt>
        <dd className="mono" data-testid="domain-url">
          {remote.url}
        </dd>
        <dt>Protocol</dt>
        <dd>{remote.protocolLabel}</dd>
        <dt>Token</dt>
        <dd data-testid="domain-token">{remote.hasToken ? "yes (not shown)" : "no"}</dd>
        <dt>Concurrency</dt>
        <dd>
          {remote.concurrency} episodes at once · {remote.maxSteps} steps at most
        </dd>
        <dt>Registered</dt>
        <dd>{remote.source === "config" ? "in the config file (remoteDomains)" : "here or from the CLI"}</dd>
        <dt>Health</dt>
        <dd>
          <HealthLine health={latest(remote.health, checked)} />
        </dd>
      </dl>
      {mayCheck || mayRemove ? (
        <div className={styles.actions}>
          {mayCheck ? <CheckNow name={remote.name} onChecked={setChecked} /> : null}
          {mayRemove && remote.source === "registered" ? <RemoveDomain remote={remote} /> : null}
        </div>
      ) : null}
    </>
  );
}
