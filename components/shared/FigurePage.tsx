"use client";

import Link from "next/link";
import { Providers } from "./providers";

/** A page of figures beside the dashboard (an exercise's debrief, a report): its title and the way back. */
export function FigurePage({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Providers>
      <main className="debrief">
        <header className="panel-head">
          <h1>{title}</h1>
          <Link href="/">Back to the dashboard</Link>
        </header>
        {children}
      </main>
    </Providers>
  );
}
