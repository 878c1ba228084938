import { invalidParameter } from "../domain-error";
import { EARLIEST_INSTANT_MS, parseQueryParameters, type QueryValues } from "../query-parameters";
import type { CallSource } from "../vocabulary";
import { normalisePhone } from "./sanitise";
import {
  type CallFilterParameterName,
  callFilterParameters,
  type CallStatus,
  type FilterEcho,
  ISO_DATE_PATTERN,
  listQueryParameters,
  type Severity,
} from "./schema";

/** Validated filters of GET /api/calls, combined with AND. */
export interface CallFilters {
  emergencyType?: string;
  severity?: Severity;
  status?: CallStatus;
  simulation?: boolean;
  tableName?: string;
  platform?: CallSource;
  /** Normalised as stored numbers are. */
  callerPhone?: string;
  /** Case-insensitive substring, taken literally. */
  location?: string;
  /** Case-insensitive substring of summary, location or transcript, taken literally. */
  text?: string;
  /** Unix seconds, inclusive bounds on the record's `timestamp`. */
  fromSeconds?: number;
  toSeconds?: number;
}

export interface FilterQuery {
  filters: CallFilters;
  /** The `filters` object of a listing. */
  echo: FilterEcho;
}

export interface ListQuery extends FilterQuery {
  limit: number;
  offset: number;
}

interface ParsedInstant {
  /** Milliseconds since the epoch (a date-only end is the last millisecond of its day). */
  ms: number;
  /** Whole seconds since the epoch, rounded toward the inside of the range. */
  seconds: number;
}

const DAY_MS = 86_400_000;

/**
 * An ISO 8601 date or date-time as a range bound. A date-time without an offset is UTC; a
 * date-only end covers its whole UTC day. Undefined when the text is not a real calendar instant,
 * or one before EARLIEST_INSTANT_MS.
 */
export function parseDateBound(text: string, bound: "start" | "end"): ParsedInstant | undefined {
  const match = ISO_DATE_PATTERN.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h = "0", mi = "0", s = "0", fraction = "", offset] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;

  let offsetMinutes = 0;
  if (offset && offset.toUpperCase() !== "Z") {
    const [, sign, oh, om] = /^([+-])(\d{2}):?(\d{2})$/.exec(offset)!;
    if (Number(oh) > 23 || Number(om) > 59) return undefined;
    offsetMinutes = (sign === "-" ? -1 : 1) * (Number(oh) * 60 + Number(om));
  }
  const wholeSecondMs = date.getTime() + ((hour * 60 + minute) * 60 + second) * 1000 - offsetMinutes * 60_000;
  if (wholeSecondMs < EARLIEST_INSTANT_MS) return undefined;
  const dateOnly = match[4] === undefined;
  if (dateOnly && bound === "end") {
    const last = wholeSecondMs + DAY_MS - 1;
    return { ms: last, seconds: Math.floor(last / 1000) };
  }
  const fractionMs = fraction ? Number(`0.${fraction}`) * 1000 : 0;
  const wholeSeconds = wholeSecondMs / 1000;
  return {
    ms: wholeSecondMs + fractionMs,
    // timestamp >= 10.5 means timestamp >= 11; timestamp <= 10.5 means timestamp <= 10.
    seconds: bound === "start" && /[1-9]/.test(fraction) ? wholeSeconds + 1 : wholeSeconds,
  };
}

function fail(name: CallFilterParameterName): never {
  const { label, message } = callFilterParameters[name];
  throw invalidParameter(label, message);
}

export type CallFilterValues = QueryValues<typeof callFilterParameters>;
export type ListQueryValues = QueryValues<typeof listQueryParameters>;

/** The validated filters as conditions; throws INVALID_PARAMETER for an impossible date range. */
export function filterQueryFrom(values: CallFilterValues): FilterQuery {
  const { emergency_type: emergencyType, severity, status, location, simulation } = values;
  const { table_name: tableName, start_date: startDate, end_date: endDate, platform } = values;
  // A `+` the client did not encode arrives as a space.
  const callerPhoneText = values.caller_phone?.replace(/^ (?=\d)/, "+");
  const callerPhone = callerPhoneText === undefined ? undefined : (normalisePhone(callerPhoneText) ?? undefined);

  const from = startDate === undefined ? undefined : (parseDateBound(startDate, "start") ?? fail("start_date"));
  const to = endDate === undefined ? undefined : (parseDateBound(endDate, "end") ?? fail("end_date"));
  if (from && to && from.ms > to.ms) {
    throw invalidParameter("Invalid date range", "start_date must not be after end_date");
  }

  const echo: FilterEcho = {
    emergency_type: emergencyType ?? null,
    severity: severity ?? null,
    status: status ?? null,
    start_date: startDate ?? null,
    end_date: endDate ?? null,
    location: location ?? null,
    simulation: simulation ?? null,
  };
  if (tableName !== undefined) echo.table_name = tableName;
  if (callerPhone !== undefined) echo.caller_phone = callerPhone;
  if (platform !== undefined) echo.platform = platform;
  if (values.q !== undefined) echo.q = values.q;

  return {
    echo,
    filters: {
      emergencyType,
      severity,
      status,
      simulation,
      tableName,
      platform,
      callerPhone,
      location,
      text: values.q,
      fromSeconds: from?.seconds,
      toSeconds: to?.seconds,
    },
  };
}

/** GET /api/calls's validated parameters as a query. */
export function listQueryFrom(values: ListQueryValues): ListQuery {
  return { limit: values.limit!, offset: values.offset!, ...filterQueryFrom(values) };
}

/** GET /api/calls's query string as a query (validation and range). */
export function parseListQuery(params: URLSearchParams): ListQuery {
  return listQueryFrom(parseQueryParameters(params, listQueryParameters));
}
