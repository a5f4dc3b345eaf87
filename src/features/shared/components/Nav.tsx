"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { UserMenu } from "@/features/auth/components/UserMenu";
import { useCan } from "@/features/auth/lib/useMe";

const LINKS = [
  { href: "/trajectories", label: "Trajectories" },
  { href: "/flagged", label: "Flagged steps" },
  { href: "/gamed", label: "Gamed episodes" },
  { href: "/annotations", label: "Annotation queue" },
  { href: "/runs", label: "Runs" },
  { href: "/curriculum", label: "Curriculum" },
  { href: "/domains", label: "Domains" },
  { href: "/jobs", label: "Jobs & imports" },
];

export function Nav() {
  const pathname = usePathname();
  const managesPeople = useCan("user:list");
  // The sign-in page shows the brand alone: every link would lead back to it.
  const signingIn = pathname.startsWith("/sign-in");
  const links = signingIn ? [] : managesPeople ? [...LINKS, { href: "/users", label: "Users" }] : LINKS;
  return (
    <nav className="nav" aria-label="Main">
      <div className="brand">
        DreamGym
        <small>experience synthesis for agent RL</small>
      </div>
      {links.map((link) => (
        <Link key={link.href} href={link.href} className={pathname.startsWith(link.href) ? "active" : ""}>
          {link.label}
        </Link>
      ))}
      {signingIn ? null : <UserMenu />}
    </nav>
  );
}
