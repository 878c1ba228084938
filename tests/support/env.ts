import { resetConfigForTests } from "@/lib/config";

/** Sets (or, with undefined, removes) environment variables, and has the config read them anew. */
export function setEnv(values: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfigForTests();
}
