import type * as z from 'zod/mini';
import { plural } from '../format.js';

/**
 * The Spanish reason of a request value that breaks its schema, as ERROR_INVALID_PARAMETER shows it after
 * «El valor de «campo» no es válido:». Schemas that give a message of their own (a RUC's 11 digits, the
 * series-number form) keep it; this covers the rest, worded for the person who typed the value.
 */
type Issue = z.core.$ZodRawIssue;

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'un texto',
  number: 'un número',
  int: 'un número entero',
  boolean: 'verdadero o falso',
  array: 'una lista',
  object: 'un objeto',
  date: 'una fecha',
  null: 'nulo',
};

const FORMAT_NAMES: Readonly<Record<string, string>> = {
  email: 'un correo electrónico válido',
  url: 'una dirección web (URL) válida',
  date: 'una fecha con la forma AAAA-MM-DD',
  datetime: 'una fecha y hora ISO 8601 con zona horaria',
  time: 'una hora con la forma HH:MM',
  uuid: 'un identificador UUID',
};

const quoted = (values: readonly unknown[]) => values.map((value) => `«${String(value)}»`).join(', ');
/** A limit as the schema states it, ungrouped ('1500 caracteres'), as the error catalogue writes its limits. */
const count = (amount: number | bigint, one: string, other: string) =>
  `${amount.toString()} ${plural(Number(amount), { one, other })}`;

function sizeUnit(origin: string, amount: number | bigint): string | null {
  if (origin === 'string') return count(amount, 'carácter', 'caracteres');
  if (origin === 'array' || origin === 'set') return count(amount, 'elemento', 'elementos');
  if (origin === 'file') return count(amount, 'byte', 'bytes');
  return null;
}

function tooSmall(issue: Extract<Issue, { code: 'too_small' }>): string {
  const unit = sizeUnit(issue.origin, issue.minimum);
  if (unit) return Number(issue.minimum) === 1 ? 'no puede estar vacío' : `debe tener al menos ${unit}`;
  return issue.inclusive === false
    ? `debe ser mayor que ${issue.minimum.toString()}`
    : `debe ser mayor o igual que ${issue.minimum.toString()}`;
}

function tooBig(issue: Extract<Issue, { code: 'too_big' }>): string {
  const unit = sizeUnit(issue.origin, issue.maximum);
  if (unit) return `admite como máximo ${unit}`;
  return issue.inclusive === false
    ? `debe ser menor que ${issue.maximum.toString()}`
    : `debe ser menor o igual que ${issue.maximum.toString()}`;
}

/** The reason in Spanish for one issue of a zod schema (zod's `localeError` configuration). */
export function spanishIssueMessage(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `debe ser ${TYPE_NAMES[issue.expected] ?? `de tipo ${issue.expected}`}`;
    case 'invalid_value':
      return issue.values.length === 1 ? `debe ser ${quoted(issue.values)}` : `debe ser uno de ${quoted(issue.values)}`;
    case 'too_small':
      return tooSmall(issue);
    case 'too_big':
      return tooBig(issue);
    case 'invalid_format':
      return issue.format in FORMAT_NAMES ? `debe ser ${FORMAT_NAMES[issue.format]}` : 'no tiene el formato esperado';
    case 'not_multiple_of':
      return issue.divisor === 0.01 ? 'admite como máximo dos decimales' : `debe ser múltiplo de ${issue.divisor}`;
    case 'unrecognized_keys':
      return `no admite ${plural(issue.keys.length, { one: 'el campo', other: 'los campos' })} ${quoted(issue.keys)}`;
    default:
      return 'no es un valor aceptado';
  }
}
