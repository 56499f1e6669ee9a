import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A throwaway self-signed certificate for localhost and 127.0.0.1 (openssl), for the app's HTTPS mode. */
export interface TestCertificate {
  dir: string;
  certFile: string;
  keyFile: string;
  /** the certificate's PEM, to trust it in a client (`ca`) */
  cert: Buffer;
  remove(): void;
}

export function makeCertificate(): TestCertificate {
  const dir = mkdtempSync(path.join(tmpdir(), 'bb-tls-'));
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0)
    throw new Error(`openssl could not make a test certificate: ${made.error?.message ?? made.stderr}`);
  return {
    dir,
    certFile,
    keyFile,
    cert: readFileSync(certFile),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
