import Button from '@cloudscape-design/components/button';

/** A list that can be loaded again: whether a reload is running, and the reload. */
export interface RefreshableList {
  readonly isRefreshing: boolean;
  readonly refresh: () => Promise<unknown>;
}

/** The icon button that loads a list again: named for screen readers, spinning while the reload runs. */
export function RefreshButton(props: { ariaLabel: string; list: RefreshableList; disabled?: boolean }) {
  return (
    <Button
      iconName="refresh"
      ariaLabel={props.ariaLabel}
      loading={props.list.isRefreshing}
      disabled={props.disabled}
      onClick={() => void props.list.refresh()}
    />
  );
}
