import type { Metadata } from "next";
import { LoginForm } from "./login-form";

export const metadata: Metadata = { title: "Sign in · Mayday dispatch" };

/** Only paths on this site, so the login page cannot be used to send someone elsewhere. */
function safeNext(next: string | string[] | undefined): string {
  const value = Array.isArray(next) ? next[0] : next;
  return value && value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\") ? value : "/";
}

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { next } = await searchParams;
  return (
    <main style={{ padding: "2rem", maxWidth: 420 }}>
      <h1>Mayday dispatch</h1>
      <p>Enter the API key of this service. The browser keeps a session for this site only.</p>
      <LoginForm next={safeNext(next)} />
    </main>
  );
}
