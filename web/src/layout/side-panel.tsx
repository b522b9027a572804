import { createContext, useContext, useMemo, useRef, useState, type ReactNode } from 'react';

/**
 * The right-hand side panel of the shell (Cloudscape AppLayout's tools region): the 'add invoice'
 * and invoice detail sidebars of spec §2 open here, beside the table they belong to.
 */
export interface SidePanel {
  /**
   * Shows `content`; `label` names the panel for assistive technology. Replaces what was open. `id` names
   * what is shown, so that its opener can close it and only it; `onDismiss` is called instead of closing
   * when the user closes the panel (an invoice's detail, whose address must change with it).
   */
  open(content: ReactNode, label: string, options?: SidePanelOptions): void;
  /** Closes the panel; with an id, only when that is what it shows. */
  close(id?: string): void;
  /** The user closed the panel: its opener's onDismiss, or else it closes. */
  dismiss(): void;
}

export interface SidePanelOptions {
  readonly id?: string;
  readonly onDismiss?: () => void;
}

interface SidePanelState {
  readonly content: ReactNode | null;
  readonly label: string;
  readonly id?: string;
  readonly onDismiss?: () => void;
}

const CLOSED: SidePanelState = { content: null, label: '' };

const SidePanelContext = createContext<SidePanel | null>(null);
const SidePanelStateContext = createContext<SidePanelState>(CLOSED);

export function SidePanelProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SidePanelState>(CLOSED);
  const latest = useRef(state);
  latest.current = state;
  const panel = useMemo<SidePanel>(
    () => ({
      open: (content, label, options = {}) => setState({ content, label, ...options }),
      close: (id) => setState((current) => (id !== undefined && current.id !== id ? current : CLOSED)),
      dismiss: () => {
        const { onDismiss } = latest.current;
        if (onDismiss) onDismiss();
        else setState(CLOSED);
      },
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
