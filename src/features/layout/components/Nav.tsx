"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useState } from "react";
import { UserMenu } from "@/features/auth/components/UserMenu";
import { useCan } from "@/features/auth/lib/useMe";

const LINKS = [
  { href: "/trajectories", label: "Trajectories" },
  { href: "/flagged", label: "Flagged steps" },
  { href: "/regression", label: "Regression suite" },
  { href: "/gamed", label: "Gamed episodes" },
  { href: "/annotations", label: "Annotation queue" },
  { href: "/runs", label: "Runs" },
  { href: "/curriculum", label: "Curriculum" },
  { href: "/domains", label: "Domains" },
  { href: "/jobs", label: "Jobs & imports" },
];

/**
 * The sidebar. On a narrow screen (globals.css) it is a bar with the brand and a menu button that opens the
 * links; following a link closes it again.
 */
export function Nav() {
  const pathname = usePathname();
  const managesPeople = useCan("user:list");
  const [open, setOpen] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page closes the menu that led to it
  useEffect(() => setOpen(false), [pathname]);
  // The sign-in page shows the brand alone: every link would lead back to it.
  const signingIn = pathname.startsWith("/sign-in");
  const links = signingIn ? [] : managesPeople ? [...LINKS, { href: "/users", label: "Users" }] : LINKS;
  return (
    <nav className={open ? "nav open" : "nav"} aria-label="Main">
      <div className="brand">
        DreamGym
        <small>experience synthesis for agent RL</small>
      </div>
      {signingIn ? null : (
        <button
          type="button"
          className="menu-button"
          aria-expanded={open}
          aria-controls="nav-links"
          onClick={() => setOpen((o) => !o)}
        >
          {open ? "Close" : "Menu"}
        </button>
      )}
      <div className="links" id="nav-links">
        {links.map((link) => (
          <Link key={link.href} href={link.href} className={pathname.startsWith(link.href) ? "active" : ""}>
            {link.label}
          </Link>
        ))}
        {signingIn ? null : <UserMenu />}
      </div>
    </nav>
  );
}
