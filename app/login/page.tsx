import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { setupNeeded } from "@/lib/access/people";
import { LoginForm } from "./login-form";

export const metadata: Metadata = { title: "Sign in · Mayday dispatch" };
export const dynamic = "force-dynamic";

/** Only paths on this site, so the login page cannot be used to send someone elsewhere. */
function safeNext(next: string | string[] | undefined): string {
  const value = Array.isArray(next) ? next[0] : next;
  return value && value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\") ? value : "/";
}

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (await setupNeeded()) redirect("/setup");
  const { next } = await searchParams;
  return (
    <main className="auth-page">
      <h1>Mayday dispatch</h1>
      <p>Sign in with the account an administrator gave you.</p>
      <LoginForm next={safeNext(next)} />
    </main>
  );
}
