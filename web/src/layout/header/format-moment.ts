import { formatDate } from '@portal/shared';

const TIME = new Intl.DateTimeFormat('es-PE', { hour: '2-digit', minute: '2-digit', hour12: false });

/** The calendar day of a timestamp where the user is, as yyyy-mm-dd. */
function localDay(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A timestamp as the user reads it: dd/mm/yy hh:mm in the browser's time zone. */
export function formatMoment(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return formatDate(null);
  return `${formatDate(localDay(date))} ${TIME.format(date)}`;
}
