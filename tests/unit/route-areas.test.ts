import { describe, expect, it } from 'vitest';
import { ROUTE_AREAS, ROUTES, areaOf, type RouteArea } from '@portal/shared';
import * as groups from '../../shared/src/routes/index.js';

const AREAS = Object.keys(ROUTE_AREAS) as RouteArea[];

describe('the route manifest by area', () => {
  it('gives every group of routes in shared/src/routes exactly one area, so a new group cannot be left out', () => {
    const routeGroups = Object.entries(groups).filter(([name]) => name.endsWith('Routes'));
    expect(routeGroups.length).toBeGreaterThan(10);
    for (const [name, group] of routeGroups) {
      const holders = AREAS.filter((area) => (ROUTE_AREAS[area] as readonly object[]).includes(group));
      expect(holders, name).toHaveLength(1);
    }
  });

  it('finds the area of every route of the manifest, and leaves no area without routes', () => {
    const byArea = new Map<RouteArea, number>();
    for (const route of ROUTES) byArea.set(areaOf(route), (byArea.get(areaOf(route)) ?? 0) + 1);
    expect([...byArea.values()].reduce((sum, count) => sum + count, 0)).toBe(ROUTES.length);
    for (const area of AREAS) expect(byArea.get(area) ?? 0, area).toBeGreaterThan(0);
  });

  it('refuses a route the manifest does not hold', () => {
    expect(() => areaOf({ ...ROUTES[0]!, id: 'ajena' })).toThrow(/no pertenece a ninguna área/);
  });
});
