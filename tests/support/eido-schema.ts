import { Ajv2020 } from "ajv/dist/2020";
import schema from "@/lib/eido/eido.schema.json";

/** lib/eido/eido.schema.json compiled with ajv (strict), its two formats checked by hand. */
const ajv = new Ajv2020({ allErrors: true, strict: true });
ajv.addFormat("date-time", (value: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(value) && !Number.isNaN(Date.parse(value)));
ajv.addFormat("uri", (value: string) => URL.canParse(value));

export const validateEido = ajv.compile(schema);
