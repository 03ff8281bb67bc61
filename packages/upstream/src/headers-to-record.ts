/** Web Headers as a plain record; Headers already lower-cases names and joins repeats with `, `. */
export function headersToRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}
