import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { MIN_PASSWORD_LENGTH } from "@/lib/vocabulary";
import { setupNeeded } from "@/lib/access/people";
import { SetupForm } from "./setup-form";

export const metadata: Metadata = { title: "First run · Mayday dispatch" };
export const dynamic = "force-dynamic";

/** First run: nobody exists yet, so the first person to come creates the administrator. */
export default async function SetupPage() {
  if (!(await setupNeeded())) redirect("/login");
  return (
    <main className="auth-page">
      <h1>Mayday dispatch: first run</h1>
      <p>
        No one can sign in yet. Create the first administrator: they add dispatchers, trainers and viewers, and the keys
        integrations use.
      </p>
      <SetupForm minPasswordLength={MIN_PASSWORD_LENGTH} />
    </main>
  );
}
