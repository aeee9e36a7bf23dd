import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { authTexts } from '../../shared/texts/index.js';

export function securityHeaders(dev: boolean) {
  return helmet({
    // Vite's dev server injects inline scripts; the built app needs none.
    contentSecurityPolicy: dev
      ? false
      : {
          directives: {
            defaultSrc: ["'self'"],
            scriptSrc: ["'self'"],
            // Mantine writes CSS variables into style attributes and <style> tags.
            styleSrc: ["'self'", "'unsafe-inline'"],
            imgSrc: ["'self'", 'data:', 'blob:'],
            fontSrc: ["'self'", 'data:'],
            connectSrc: ["'self'"],
            mediaSrc: ["'self'", 'blob:'],
            objectSrc: ["'none'"],
            frameAncestors: ["'none'"],
            upgradeInsecureRequests: null,
          },
        },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: false,
  });
}

// A request that carries our cookie but comes from a page of another origin is refused: the
// SameSite=Lax cookie already stops most of it, this closes the rest (and cross-site WebSockets).
export function isForeignOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin) {
    if (origin === 'null') return true;
    try {
      return new URL(origin).host !== req.headers.host;
    } catch {
      return true;
    }
  }
  return req.headers['sec-fetch-site'] === 'cross-site';
}

const stateChanging = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function refuseForeignOrigins(req: Request, res: Response, next: NextFunction) {
  if (stateChanging.has(req.method) && req.headers.cookie && isForeignOrigin(req)) {
    res.status(403).json({ message: authTexts.foreignOrigin });
    return;
  }
  next();
}
