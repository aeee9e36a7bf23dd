import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// MSAL refuses http authorities and the Graph client sends tokens only over https, so the
// Microsoft fakes serve https. The certificate authority and the server certificate (for
// localhost and 127.0.0.1) are made at test time with the openssl CLI; processes that call the
// fakes trust the authority through NODE_EXTRA_CA_CERTS, which Node reads only at start.

export type TestCertificates = { dir: string; caFile: string; keyFile: string; certFile: string };

export function makeTestCertificates(dir: string): TestCertificates {
  fs.mkdirSync(dir, { recursive: true });
  const file = (name: string) => path.join(dir, name);
  const done: TestCertificates = { dir, caFile: file('ca.pem'), keyFile: file('server-key.pem'), certFile: file('server.pem') };
  if (fs.existsSync(done.certFile)) return done;
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=AI Coach test CA',
    '-keyout', file('ca-key.pem'), '-out', done.caFile,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-keyout', done.keyFile, '-out', file('server.csr'));
  fs.writeFileSync(file('server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
  openssl('x509', '-req', '-in', file('server.csr'), '-CA', done.caFile, '-CAkey', file('ca-key.pem'), '-CAcreateserial',
    '-days', '2', '-out', done.certFile, '-extfile', file('server.ext'));
  return done;
}

/** The certificates named by TEST_TLS_DIR (set by the test setup), as https server options. */
export function testTlsOptions(dir = process.env.TEST_TLS_DIR): { key: Buffer; cert: Buffer } {
  if (!dir) throw new Error('TEST_TLS_DIR is not set: the test setup makes the certificates (test/setup/tls.ts)');
  const certs = makeTestCertificates(dir);
  return { key: fs.readFileSync(certs.keyFile), cert: fs.readFileSync(certs.certFile) };
}
