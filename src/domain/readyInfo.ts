/** What the CLI tells tools once it listens, as the ready file and the JSON banner carry it: written by cli/, read by testing/ and cli/ alike. */

/** The ready file's content (and the JSON banner's): everything a launcher needs to reach the emulator. */
export interface ReadyInfo {
  name: 'sms-emulator';
  version: string;
  /** The emulator's own process id (signal this one to stop it). */
  pid: number;
  /** `http://127.0.0.1:PORT`; the control API is at `<origin>/_emulator`. */
  origin: string;
  /** Live base URL (the API at `<live>/v1`). */
  live: string;
  /** Sandbox base URL (the API at `<sandbox>/v1`). */
  sandbox: string;
  control: string;
  docs: string;
  port: number;
  apiKey: string;
  signingSecret: string;
  balance: number;
  /** Most recipients per request (BATCH_LIMIT_EXCEEDED above it). */
  batchLimit: number;
  /** Why that limit: the default or the option, and the spec's two numbers. */
  batchLimitNote: string;
  clock: 'realtime' | 'manual';
  speed: number;
  seed: string;
  /** Whether the control API needs `Authorization: Bearer <token>` (the token itself is never written). */
  controlTokenRequired: boolean;
  /** With `publicUrl`: the origin every link (`_links`, webhook payloads, docs) uses; `origin` stays the address listened on. */
  publicUrl?: string;
  /** With TLS: the certificate a client must trust. */
  tls?: ReadyTls;
}

export interface ReadyTls {
  /** SHA-256 fingerprint, as the banner prints it. */
  fingerprint: string;
  /** True for the certificate made at start (`--tls`), false for `--tls-cert`. */
  selfSigned: boolean;
  /** The certificate (PEM), e.g. to write out for `NODE_EXTRA_CA_CERTS` or `curl --cacert`. */
  cert: string;
  /** With `--tls-cert`: the PEM file it was read from. */
  certFile?: string;
}
