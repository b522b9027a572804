import { useEffect } from 'react';

const DISALLOWED = 'nav[aria-orientation]';

/**
 * Cloudscape's AppLayout, below its mobile breakpoint, renders the menu toggle inside
 * `<nav aria-orientation="horizontal">`. The navigation role does not support aria-orientation (WCAG 4.1.2,
 * axe's aria-allowed-attr), no prop of the layout turns it off, and it tells a screen reader nothing: the shell
 * removes it whenever the layout renders it (on mounting, and again when a resize re-renders the toolbar).
 */
export function useNavigationWithoutOrientation(): void {
  useEffect(() => {
    const strip = () => {
      for (const nav of document.querySelectorAll(DISALLOWED)) nav.removeAttribute('aria-orientation');
    };
    strip();
    const observer = new MutationObserver(strip);
    observer.observe(document.body, { subtree: true, childList: true, attributeFilter: ['aria-orientation'] });
    return () => observer.disconnect();
  }, []);
}
