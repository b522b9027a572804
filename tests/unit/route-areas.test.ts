import { describe, expect, it } from 'vitest';
import { ROUTE_AREAS, ROUTES, routesOfArea, type RouteArea } from '@portal/shared';
import * as groups from '../../shared/src/routes/index.js';

const AREAS = Object.keys(ROUTE_AREAS) as RouteArea[];

describe('the route manifest by area', () => {
  it('puts every route of the manifest in exactly one area, in the manifest order', () => {
    const placed = AREAS.flatMap((area) => routesOfArea(area).map((route) => ({ area, id: route.id })));
    expect(placed.map(({ id }) => id).sort()).toEqual(ROUTES.map((route) => route.id).sort());
    expect(new Set(placed.map(({ id }) => id)).size).toBe(ROUTES.length);
    for (const area of AREAS) {
      const ids = routesOfArea(area).map((route) => route.id);
      expect(ids, area).toEqual(ROUTES.map((route) => route.id).filter((id) => ids.includes(id)));
    }
  });

  it('gives every group of routes in shared/src/routes an area, so a new group cannot be left out', () => {
    const routeGroups = Object.entries(groups).filter(([name]) => name.endsWith('Routes'));
    expect(routeGroups.length).toBeGreaterThan(10);
    const inAreas = new Set<object>(AREAS.flatMap((area) => [...ROUTE_AREAS[area]]));
    for (const [name, group] of routeGroups) expect(inAreas.has(group), name).toBe(true);
  });

  it('leaves no area empty', () => {
    for (const area of AREAS) expect(routesOfArea(area).length, area).toBeGreaterThan(0);
  });
});
