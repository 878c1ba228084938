import { request, type FullConfig } from "@playwright/test";
import { ADMIN_STATE, E2E_ADMIN } from "../../playwright.config";

/** Signs in once as the app server's administrator; the "app" project's tests start from that session. */
export default async function globalSetup(config: FullConfig): Promise<void> {
  const baseURL = config.projects.find((project) => project.name === "app")?.use.baseURL;
  const context = await request.newContext({ baseURL });
  const response = await context.post("/api/session", { data: E2E_ADMIN });
  if (response.status() !== 200) throw new Error(`sign-in as the e2e administrator: ${response.status()} ${await response.text()}`);
  await context.storageState({ path: ADMIN_STATE });
  await context.dispose();
}
