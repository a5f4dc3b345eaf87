"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/trajectories", label: "Trajectories" },
  { href: "/flagged", label: "Flagged steps" },
  { href: "/gamed", label: "Gamed episodes" },
  { href: "/annotations", label: "Annotation queue" },
  { href: "/runs", label: "Runs" },
  { href: "/curriculum", label: "Curriculum" },
  { href: "/jobs", label: "Jobs & imports" },
];

export function Nav() {
  const pathname = usePathname();
  return (
    <nav className="nav" aria-label="Main">
      <div className="brand">
        DreamGym
        <small>experience synthesis for agent RL</small>
      </div>
      {LINKS.map((link) => (
        <Link key={link.href} href={link.href} className={pathname.startsWith(link.href) ? "active" : ""}>
          {link.label}
        </Link>
      ))}
    </nav>
  );
}
