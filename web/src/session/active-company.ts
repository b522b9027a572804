import { useSyncExternalStore } from 'react';

/**
 * The company the user chose to act for (spec §6: the chosen one, or the first of the taxId list).
 * Kept outside React so the API client can read it; persisted per browser tab.
 */
const STORAGE_KEY = 'portal.activeCompany';
const listeners = new Set<() => void>();

function readStored(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

let chosen: string | null = readStored();

export function chosenCompany(): string | null {
  return chosen;
}

export function chooseCompany(taxId: string | null): void {
  chosen = taxId;
  try {
    if (taxId) sessionStorage.setItem(STORAGE_KEY, taxId);
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage may be unavailable (private mode): the choice then lasts until reload.
  }
  listeners.forEach((listener) => listener());
}

/** The active company among the allowed ones: the chosen one when allowed, otherwise the first. */
export function resolveActiveCompany(allowed: readonly string[], choice: string | null = chosen): string | null {
  if (choice && allowed.includes(choice)) return choice;
  return allowed[0] ?? null;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The chosen company, re-rendering when it changes. */
export function useChosenCompany(): string | null {
  return useSyncExternalStore(subscribe, chosenCompany, chosenCompany);
}
