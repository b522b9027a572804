import { useRef } from 'react';
import type { TopNavigationProps } from '@cloudscape-design/components/top-navigation';

type Utility = TopNavigationProps.Utility;

/**
 * What the top navigation measures to decide which utilities fit: how many there are and, on a wide screen where
 * they may show their labels, each one's label. On a phone every utility is an icon behind «Opciones», so only their
 * number counts.
 */
function layoutKey(utilities: readonly Utility[], narrow: boolean): string {
  if (narrow) return String(utilities.length);
  return JSON.stringify(utilities.map((utility) => [utility.type, utility.text ?? '', utility.iconName ?? '']));
}

/**
 * The header's utilities as the same array for as long as their layout stays the same, its items replaced in place.
 *
 * Cloudscape's top navigation measures its layout again whenever the `utilities` array is a new one, and that closes
 * an open overflow menu: on a phone «Opciones» would shut in the user's hand each time the notifications feed or a
 * count refreshes. Kept steady, the menu stays open and its counts update.
 */
export function useSteadyUtilities(utilities: Utility[], narrow: boolean): Utility[] {
  const steady = useRef<{ key: string; array: Utility[] } | null>(null);
  const key = layoutKey(utilities, narrow);
  if (!steady.current || steady.current.key !== key) {
    steady.current = { key, array: [...utilities] };
  } else {
    steady.current.array.splice(0, steady.current.array.length, ...utilities);
  }
  return steady.current.array;
}
