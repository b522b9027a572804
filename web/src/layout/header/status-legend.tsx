import { Suspense, lazy, useState } from 'react';
import type { TopNavigationProps } from '@cloudscape-design/components/top-navigation';
import { headerMessages } from './messages';
import './header.css';

const text = headerMessages.legend;

// The dialog is its own chunk, loaded when the legend is first opened, and kept mounted afterwards.
const StatusLegendDialog = lazy(() => import('./status-legend-dialog'));

/** The header's status legend (spec §2): a button that opens what every status of spec §4 means. */
export function useStatusLegend(): { utility: TopNavigationProps.ButtonUtility; dialog: React.ReactNode } {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const utility: TopNavigationProps.ButtonUtility = {
    type: 'button',
    iconName: 'status-info',
    text: text.button,
    title: text.button,
    ariaLabel: text.button,
    onClick: () => {
      setUsed(true);
      setOpen(true);
    },
  };
  const dialog = used ? (
    <Suspense fallback={null}>
      <StatusLegendDialog visible={open} onDismiss={() => setOpen(false)} />
    </Suspense>
  ) : null;
  return { utility, dialog };
}
