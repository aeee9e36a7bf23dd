const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

/** '5 minutes ago', 'yesterday', 'now': how long ago an ISO time was, in the browser's language. */
export function ago(iso: string): string {
  const seconds = Math.round((new Date(iso).getTime() - Date.now()) / 1000);
  if (seconds > -60) return relative.format(0, 'second');
  if (seconds > -3600) return relative.format(Math.round(seconds / 60), 'minute');
  if (seconds > -86_400) return relative.format(Math.round(seconds / 3600), 'hour');
  return relative.format(Math.round(seconds / 86_400), 'day');
}
