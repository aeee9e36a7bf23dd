import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// MSAL refuses http authorities and the Graph client sends tokens only over https, so the
// Microsoft fakes serve https. Their certificate (for localhost and 127.0.0.1) and its authority
// are committed fixtures in test/fakes/tls/ (valid 2020 to 2120; how they were made is in
// test/fakes/tls/README.md), so no test runs a program to make them. Processes that call the
// fakes trust the authority through NODE_EXTRA_CA_CERTS, which Node reads only at start.

export type TestCertificates = { dir: string; caFile: string; keyFile: string; certFile: string };

const fixtureDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'tls');

/** The committed test certificates (paths only: nothing is made or read). */
export function testCertificates(dir = fixtureDir): TestCertificates {
  return { dir, caFile: path.join(dir, 'ca.pem'), keyFile: path.join(dir, 'server-key.pem'), certFile: path.join(dir, 'server.pem') };
}

/** The https server options of the fakes: the certificates in TEST_TLS_DIR, else the committed ones. */
export function testTlsOptions(dir = process.env.TEST_TLS_DIR || fixtureDir): { key: Buffer; cert: Buffer } {
  const certs = testCertificates(dir);
  return { key: fs.readFileSync(certs.keyFile), cert: fs.readFileSync(certs.certFile) };
}
