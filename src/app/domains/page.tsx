import { DomainsPage } from "@/features/domains/components/DomainsPage";

export default function Page() {
  return (
    <>
      <h1>Domains</h1>
      <p className="sub">
        Where runs train and are evaluated: the built-in environments, real environments running elsewhere
        (remote), and domains imported from logs.
      </p>
      <DomainsPage />
    </>
  );
}
