import { testCertificates } from '../fakes/tls.js';

// Vitest globalSetup: runs in the main process before the workers are forked, so the workers
// start with NODE_EXTRA_CA_CERTS set and trust the https fakes of Microsoft Graph and Entra ID
// (their certificates are committed fixtures: test/fakes/tls/).
export default function setup() {
  const certs = testCertificates();
  process.env.TEST_TLS_DIR = certs.dir;
  process.env.NODE_EXTRA_CA_CERTS = certs.caFile;
}
