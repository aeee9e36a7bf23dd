// A built file with its brotli and gzip copies at the highest levels, as vite-plugin-compression2
// writes the client build's own (vite.config.ts): for files the build changes or adds after that
// plugin has run (the compile hint, the prerendered pages and their boot script).
import fs from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Writes `file` and, where smaller, `file.br` and `file.gz`. */
export function writeCompressed(file, text) {
  const bytes = Buffer.from(text);
  fs.writeFileSync(file, bytes);
  for (const [suffix, compressed] of [
    ['.br', brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } })],
    ['.gz', gzipSync(bytes, { level: 9 })],
  ]) {
    if (compressed.length < bytes.length) fs.writeFileSync(file + suffix, compressed);
    else fs.rmSync(file + suffix, { force: true });
  }
}
