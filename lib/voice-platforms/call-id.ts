import { missingFields } from "./fields";

/** A platform's call id as Mayday's conversation ids hold it. */
const CALL_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,190}$/;

/** The call id at `field` of a tool request, checked against `form`; 400 MISSING_FIELDS naming the field otherwise. */
export function callIdAt(value: unknown, field: string, form = CALL_ID): string {
  if (typeof value !== "string" || !form.test(value)) throw missingFields([field]);
  return value;
}
