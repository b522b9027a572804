import type { ReactNode } from 'react';
import Link from '@cloudscape-design/components/link';

/**
 * A link the app follows itself: a plain click runs `onFollow` instead of loading a page, while `href`
 * (where there is one) still opens in a new tab or is copied as a link.
 */
export function ActionLink(props: { href?: string; ariaLabel?: string; onFollow: () => void; children: ReactNode }) {
  return (
    <Link
      href={props.href}
      ariaLabel={props.ariaLabel}
      onFollow={(event) => {
        event.preventDefault();
        props.onFollow();
      }}
    >
      {props.children}
    </Link>
  );
}
