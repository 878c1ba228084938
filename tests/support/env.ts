import { afterAll, beforeAll } from "vitest";
import { resetConfigForTests } from "@/lib/config";

/** Sets (or, with undefined, removes) environment variables, and has the config read them anew. */
export function setEnv(values: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfigForTests();
}

/** The file's tests run without these variables; the file's end puts back what they were. */
export function withoutEnv(...names: string[]): void {
  const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
  beforeAll(() => setEnv(Object.fromEntries(names.map((name) => [name, undefined]))));
  afterAll(() => setEnv(saved));
}
