import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation, useNavigate } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { useQueryState } from './use-query-state';

/*
 * The query as a screen changes it: two changes made before the router has rendered the first (a month then a
 * year chosen quickly) keep both, and a change from elsewhere (a link) is what the next change builds on.
 */

function wrapper(initial: string) {
  return ({ children }: { children: ReactNode }) => <MemoryRouter initialEntries={[initial]}>{children}</MemoryRouter>;
}

function renderQuery(initial: string) {
  return renderHook(() => ({ query: useQueryState(), location: useLocation() }), { wrapper: wrapper(initial) });
}

function withValue(params: URLSearchParams, name: string, value: string): URLSearchParams {
  const next = new URLSearchParams(params);
  next.set(name, value);
  return next;
}

describe('useQueryState', () => {
  it('keeps both of two changes made before the router caught up with the first', () => {
    // Prepare
    const { result } = renderQuery('/dashboard?tab=1');

    // Act: both changes in one event, so the hook has not rendered between them
    act(() => {
      const { latest, replace } = result.current.query;
      replace(withValue(latest(), 'month', '8'));
      replace(withValue(latest(), 'year', '2026'));
    });

    // Assess
    expect(Object.fromEntries(new URLSearchParams(result.current.location.search))).toEqual({
      tab: '1',
      month: '8',
      year: '2026',
    });
    expect(result.current.query.key).toBe('tab=1&month=8&year=2026');
  });

  it('builds on the URL again once a link changed it from elsewhere', () => {
    // Prepare
    const { result } = renderHook(
      () => ({ query: useQueryState(), location: useLocation(), navigate: useNavigate() }),
      { wrapper: wrapper('/invoices?status=pending') },
    );
    act(() => result.current.query.replace(withValue(result.current.query.latest(), 'page', '2')));

    // Act: a link from the header, then a change on the screen
    act(() => void result.current.navigate('/invoices?client=20100000001'));
    act(() => result.current.query.replace(withValue(result.current.query.latest(), 'page', '3')));

    // Assess: the change builds on the link's query, not on the screen's last one
    expect(result.current.location.search).toBe('?client=20100000001&page=3');
  });
});
