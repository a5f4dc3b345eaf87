"use client";

import { Allowed } from "@/features/auth/components/Allowed";
import styles from "../domains.module.css";
import { DomainList } from "./DomainList";
import { RegisterForm } from "./RegisterForm";

/** Every domain a run may name, and, for those who may, registering a real environment that runs elsewhere. */
export function DomainsPage() {
  return (
    <div className={styles.page}>
      <div className={styles.columns}>
        <DomainList />
        <Allowed permission="data:import">
          <RegisterForm />
        </Allowed>
      </div>
    </div>
  );
}
