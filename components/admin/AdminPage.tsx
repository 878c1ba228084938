"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import type { WhoAmI } from "@/lib/access/schema";
import { PersonMenu, PersonProvider } from "../shared/person";
import { Providers } from "../shared/providers";

/** An administrators' page: its title, the way back to the dashboard and the person's menu above its sections. */
export function AdminPage({ person, title, children }: { person: WhoAmI; title: string; children: ReactNode }) {
  return (
    <Providers>
      <PersonProvider person={person}>
        <header className="top-bar">
          <h1>{title}</h1>
          <Link href="/">Dashboard</Link>
          <PersonMenu />
        </header>
        <main className="admin-page">{children}</main>
      </PersonProvider>
    </Providers>
  );
}
