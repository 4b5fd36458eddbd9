/** A submitted form's text fields by name (files are not used by any form here). */
export function formValues(event: Event): Record<string, string> {
  event.preventDefault();
  const out: Record<string, string> = {};
  for (const [name, value] of new FormData(event.currentTarget as HTMLFormElement)) {
    if (typeof value === 'string') out[name] = value;
  }
  return out;
}
