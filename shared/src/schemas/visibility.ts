import * as z from 'zod/mini';
import type { Level } from '../domain.js';

/**
 * What of an answer each role reads (docs/adr/0049-fields-by-role.md), declared on the response schemas themselves:
 * - `staffOnly(schema)`: a field only the group's staff read (a manager, an administrator). A supplier, and its API
 *   client, get the answer without it; so it is optional in the contract, and the OpenAPI document marks it
 *   `x-staff-only`.
 * - `supplierView(schema, view)`: a value a supplier reads otherwise (an audit record without what it holds for staff
 *   only); `view` answers the supplier's value, or undefined to leave it out (of its list, or its object).
 * The HTTP wrapper applies them to every answer (`forLevel`), and the exports worker to every row: a use case never
 * decides it again.
 */

type SupplierView = (value: never) => unknown;

const staffOnlyFields = new WeakSet<z.ZodMiniType>();
const supplierViews = new WeakMap<z.ZodMiniType, SupplierView>();

export const STAFF_ONLY_DESCRIPTION = 'Solo para el personal del grupo: no figura en la respuesta a un proveedor.';

/** A field of an answer only the group's staff read. */
export function staffOnly<T extends z.ZodMiniType>(schema: T): z.ZodMiniOptional<T> {
  const field = z.optional(schema);
  staffOnlyFields.add(field);
  z.globalRegistry.add(field, { description: STAFF_ONLY_DESCRIPTION, 'x-staff-only': true });
  return field;
}

/** A value a supplier reads through `view` (undefined: not at all). */
export function supplierView<T extends z.ZodMiniType>(
  schema: T,
  view: (value: z.output<T>) => z.output<T> | undefined,
): T {
  supplierViews.set(schema, view as SupplierView);
  return schema;
}

/** Whether a level reads answers whole: the group's staff. A supplier and its API clients read the supplier's view. */
export function readsWhole(level: Level): boolean {
  return level === 'ADMIN' || level === 'MANAGER';
}

type Def = {
  type: string;
  shape?: Record<string, z.ZodMiniType>;
  innerType?: z.ZodMiniType;
  element?: z.ZodMiniType;
  options?: readonly z.ZodMiniType[];
  in?: z.ZodMiniType;
  out?: z.ZodMiniType;
  getter?: () => z.ZodMiniType;
  valueType?: z.ZodMiniType;
};
const defOf = (schema: z.ZodMiniType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schemas whose value passes through unchanged, whatever the level (most of them): skipped whole. */
const plainCache = new WeakMap<z.ZodMiniType, boolean>();

function children(schema: z.ZodMiniType): z.ZodMiniType[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      return Object.values(def.shape ?? {});
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return [def.innerType!];
    case 'array':
      return [def.element!];
    case 'union':
      return [...(def.options ?? [])];
    case 'pipe':
      return [def.in!, def.out!];
    case 'record':
      return [def.valueType!];
    case 'lazy':
      return [def.getter!()];
    default:
      return [];
  }
}

function isPlain(schema: z.ZodMiniType, seen = new Set<z.ZodMiniType>()): boolean {
  const cached = plainCache.get(schema);
  if (cached !== undefined) return cached;
  if (seen.has(schema)) return true;
  seen.add(schema);
  const plain =
    !staffOnlyFields.has(schema) &&
    !supplierViews.has(schema) &&
    children(schema).every((child) => isPlain(child, seen));
  plainCache.set(schema, plain);
  return plain;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The supplier's view of a value its schema already parsed; undefined: the value is left out. */
function supplierValue(schema: z.ZodMiniType, value: unknown): unknown {
  if (value === undefined || value === null || isPlain(schema)) return value;
  const view = supplierViews.get(schema);
  if (view) {
    const viewed = view(value as never);
    if (viewed === undefined) return undefined;
    value = viewed;
  }
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      if (!isObject(value)) return value;
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(value)) {
        const fieldSchema = def.shape?.[key];
        if (fieldSchema && staffOnlyFields.has(fieldSchema)) continue;
        const projected = fieldSchema ? supplierValue(fieldSchema, field) : field;
        if (projected !== undefined) out[key] = projected;
      }
      return out;
    }
    case 'array':
      return Array.isArray(value)
        ? value.flatMap((item) => {
            const projected = supplierValue(def.element!, item);
            return projected === undefined ? [] : [projected];
          })
        : value;
    case 'union': {
      // The option the value was parsed by: the first that accepts it, as zod tries them.
      const option = def.options?.find((candidate) => candidate.safeParse(value).success);
      return option ? supplierValue(option, value) : value;
    }
    case 'pipe':
      return supplierValue(def.out!, value);
    case 'record':
      return isObject(value)
        ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, supplierValue(def.valueType!, item)]))
        : value;
    default: {
      const [inner] = children(schema);
      return inner ? supplierValue(inner, value) : value;
    }
  }
}

/**
 * An answer (already parsed by its schema) as a caller of `level` may read it: whole for staff, else without every
 * staff-only field and through every supplier view.
 */
export function forLevel<T>(schema: z.ZodMiniType, value: T, level: Level): T {
  return readsWhole(level) ? value : (supplierValue(schema, value) as T);
}

/** Whether the field at `path` (object keys, through optional/nullable wrappers) is staff-only in `schema`. */
export function isStaffOnlyAt(schema: z.ZodMiniType, path: readonly string[]): boolean {
  let current: z.ZodMiniType | undefined = schema;
  for (const key of path) {
    while (current && defOf(current).type !== 'object') {
      if (staffOnlyFields.has(current)) return true;
      current = children(current)[0];
    }
    current = current ? defOf(current).shape?.[key] : undefined;
    if (!current) return false;
    if (staffOnlyFields.has(current)) return true;
  }
  return false;
}

/**
 * The staff-only fields `value` holds, by path (`statusHistory[2].by`): none in an answer a supplier got. For the
 * tests that read answers as a supplier; it walks the schema as `forLevel` does.
 */
export function staffOnlyFieldsIn(schema: z.ZodMiniType, value: unknown, path = ''): string[] {
  if (value === undefined || value === null || isPlain(schema)) return [];
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      if (!isObject(value)) return [];
      return Object.entries(value).flatMap(([key, field]) => {
        const fieldSchema = def.shape?.[key];
        const at = path ? `${path}.${key}` : key;
        if (!fieldSchema) return [];
        return staffOnlyFields.has(fieldSchema) ? [at] : staffOnlyFieldsIn(fieldSchema, field, at);
      });
    }
    case 'array':
      return Array.isArray(value)
        ? value.flatMap((item, i) => staffOnlyFieldsIn(def.element!, item, `${path}[${i}]`))
        : [];
    case 'union': {
      const option = def.options?.find((candidate) => candidate.safeParse(value).success);
      return option ? staffOnlyFieldsIn(option, value, path) : [];
    }
    case 'pipe':
      return staffOnlyFieldsIn(def.out!, value, path);
    case 'record':
      return isObject(value)
        ? Object.entries(value).flatMap(([key, item]) => staffOnlyFieldsIn(def.valueType!, item, `${path}.${key}`))
        : [];
    default: {
      const [inner] = children(schema);
      return inner ? staffOnlyFieldsIn(inner, value, path) : [];
    }
  }
}
