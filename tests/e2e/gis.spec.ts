import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";

const FIXTURE = path.join(__dirname, "..", "fixtures", "gis", "address-points.csv");

test("an administrator imports the centre's address points, and a bad file names its line and changes nothing", async ({ page }) => {
  const rows = readFileSync(FIXTURE, "utf8").trim().split("\n").length - 1;
  // The layers' first read is answered before the import and reaches the page only after it (a
  // slow network, a busy server): the page must read the layers again, not show that first answer.
  // It is let through when the page asks again, or a while after the import answered (when it never does).
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let reads = 0;
  page.on("requestfinished", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/api/gis") setTimeout(release, 3_000);
  });
  await page.route((url) => url.pathname === "/api/gis", async (route) => {
    if (route.request().method() !== "GET") return route.fallback();
    if (++reads > 1) {
      release();
      return route.fallback();
    }
    const response = await route.fetch();
    await released;
    await route.fulfill({ response });
  });
  await page.goto("/");
  await page.locator(".admin-menu summary").click();
  await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "GIS data" }).click();
  await expect(page).toHaveURL(/\/admin\/gis$/);

  const form = page.getByRole("form", { name: "Import a GIS file" });
  await form.getByLabel("File", { exact: true }).setInputFiles(FIXTURE);
  await form.getByRole("button", { name: "Import" }).click();
  await expect(page.getByTestId("gis-import-result")).toHaveText(`Address points: ${rows.toLocaleString("en-US")} features imported.`);
  const layer = page.getByRole("row", { name: /Address points/ });
  await expect(layer).toContainText(rows.toLocaleString("en-US"));
  await expect(layer).toContainText("address-points.csv");

  await form.getByLabel("File", { exact: true }).setInputFiles({ name: "broken.csv", mimeType: "text/csv", buffer: Buffer.from("Add_Number,St_Name,lon,lat\n1,Elm,-89.6,39.7\nten,Elm,-89.6,39.7\n") });
  await form.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("region", { name: "The centre's GIS data" }).getByRole("alert")).toContainText('line 3, field Add_Number: "ten" is not a whole number');
  await expect(layer).toContainText(rows.toLocaleString("en-US"));
  await expect(layer).toContainText("address-points.csv");
});
