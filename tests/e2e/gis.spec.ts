import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";

const FIXTURE = path.join(__dirname, "..", "fixtures", "gis", "address-points.csv");

test("an administrator imports the centre's address points, and a bad file names its line and changes nothing", async ({ page }) => {
  const rows = readFileSync(FIXTURE, "utf8").trim().split("\n").length - 1;
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
