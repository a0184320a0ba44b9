/** Any JSON value. */
export type JSONValue =
  string | number | boolean | null | JSONObject | JSONArray;
export type JSONObject = { [key: string]: JSONValue };
export type JSONArray = JSONValue[];

/** A sample with one loss of each kind in the export. */
export interface Sample {
  /** @TJS-type number */
  temperature: number;
  kind: "sample";
  role: "user" | "assistant";
  name: string;
  /** @maximum 10 */
  count?: number;
  label?: string;
  tags: { [key: string]: string };
}

/** Members of any name, each a string. */
export interface Labels {
  [key: string]: string;
  main?: string;
}

/** Labels and a name: the export leaves the index signature out. */
export interface NamedLabels extends Labels {
  name: string;
}
