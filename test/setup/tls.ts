import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeTestCertificates } from '../fakes/tls.js';

// Vitest globalSetup: runs in the main process before the workers are forked, so the workers
// start with NODE_EXTRA_CA_CERTS set and trust the https fakes of Microsoft Graph and Entra ID.
export default function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-tls-'));
  const certs = makeTestCertificates(dir);
  process.env.TEST_TLS_DIR = dir;
  process.env.NODE_EXTRA_CA_CERTS = certs.caFile;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
