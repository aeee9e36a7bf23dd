import type { Express } from 'express';

export type RouteInfo = { method: string; path: string };
type Layer = { route?: { path: string; methods: Record<string, boolean> }; handle?: { stack?: unknown[] } };

function routesOf(stack: Layer[]): RouteInfo[] {
  return stack.flatMap((layer) => {
    if (layer.route) return Object.keys(layer.route.methods).filter((m) => m !== '_all').map((method) => ({ method: method.toUpperCase(), path: layer.route!.path }));
    return layer.handle?.stack ? routesOf(layer.handle.stack as Layer[]) : [];
  });
}

/** Every /api route the Express app registers (catch-alls for any method left out). */
export function apiRoutesOf(app: Express): RouteInfo[] {
  return routesOf((app as unknown as { router: { stack: Layer[] } }).router.stack).filter((route) => route.path.startsWith('/api/'));
}
