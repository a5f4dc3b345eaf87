import type { Metadata } from "next";
import type { ReactNode } from "react";
import { Nav } from "@/features/layout/components/Nav";
import { TRPCReactProvider } from "@/trpc/react";
import "./globals.css";

export const metadata: Metadata = {
  title: "DreamGym",
  description:
    "Agent learning via experience synthesis: experience model, replay buffer, curriculum, GRPO/PPO",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <TRPCReactProvider>
          <div className="shell">
            <Nav />
            <main className="main">{children}</main>
          </div>
        </TRPCReactProvider>
      </body>
    </html>
  );
}
