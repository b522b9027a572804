import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';

/**
 * The right-hand side panel of the shell (Cloudscape AppLayout's tools region): the 'add invoice'
 * and invoice detail sidebars of spec §2 open here, beside the table they belong to.
 */
export interface SidePanel {
  /** Shows `content`; `label` names the panel for assistive technology. Replaces what was open. */
  open(content: ReactNode, label: string): void;
  close(): void;
}

interface SidePanelState {
  readonly content: ReactNode | null;
  readonly label: string;
}

const SidePanelContext = createContext<SidePanel | null>(null);
const SidePanelStateContext = createContext<SidePanelState>({ content: null, label: '' });

export function SidePanelProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SidePanelState>({ content: null, label: '' });
  const panel = useMemo<SidePanel>(
    () => ({
      open: (content, label) => setState({ content, label }),
      close: () => setState({ content: null, label: '' }),
    }),
    [],
  );
  return (
    <SidePanelContext.Provider value={panel}>
      <SidePanelStateContext.Provider value={state}>{children}</SidePanelStateContext.Provider>
    </SidePanelContext.Provider>
  );
}

export function useSidePanel(): SidePanel {
  const panel = useContext(SidePanelContext);
  if (!panel) throw new Error('useSidePanel outside SidePanelProvider');
  return panel;
}

/** What the shell renders in the tools region. */
export function useSidePanelState(): SidePanelState {
  return useContext(SidePanelStateContext);
}
