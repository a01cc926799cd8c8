// A TLS front for a plain local server: a self-signed certificate for a made-up host name (made
// with openssl on the fly), and a TLS server on 127.0.0.1 that passes the decrypted bytes to the
// plain port. With the forward proxy's route table, `https://llm.invalid/…` through HTTPS_PROXY
// reaches a local fake over a real CONNECT tunnel and a real TLS handshake; the client trusts the
// certificate through NODE_EXTRA_CA_CERTS.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer } from 'node:tls';

export interface TlsRelay {
  port: number;
  /** The certificate (PEM file), for NODE_EXTRA_CA_CERTS. */
  caFile: string;
  close(): Promise<void>;
}

export async function startTlsRelay(hostname: string, targetPort: number): Promise<TlsRelay> {
  const dir = mkdtempSync(path.join(tmpdir(), 'oxo-tls-'));
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', `/CN=${hostname}`, '-addext', `subjectAltName=DNS:${hostname}`], { stdio: 'ignore' });
  const sockets = new Set<Socket>();
  const server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (tlsSocket) => {
    const plain = connect(targetPort, '127.0.0.1');
    for (const s of [tlsSocket, plain] as Socket[]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    tlsSocket.pipe(plain).pipe(tlsSocket);
    tlsSocket.on('close', () => plain.destroy());
    plain.on('close', () => tlsSocket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    caFile: cert,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
