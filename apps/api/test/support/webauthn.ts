import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { encodeCBOR, type CBORType } from "@levischuck/tiny-cbor";

/**
 * A software passkey authenticator for the API tests: it answers the options the portal hands out exactly as
 * the WebAuthn specification has a browser and an authenticator answer them (attestation "none", ES256 keys),
 * so the server's own verification (SimpleWebAuthn inside Better Auth's passkey plugin) checks real signatures.
 * The browser journeys use Chromium's virtual authenticator instead.
 */
export interface SoftwarePasskey {
  credentialId: Buffer;
  privateKey: KeyObject;
  userHandle: string;
  rpId: string;
  counter: number;
  /** Whether the authenticator reports user verification (a PIN or biometric). */
  userVerified: boolean;
}

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

function flags({ attested, userVerified }: { attested: boolean; userVerified: boolean }): number {
  // UP (user present) always; UV when verified; BE+BS (a synced passkey); AT with attested credential data.
  return 0x01 | (userVerified ? 0x04 : 0) | 0x08 | 0x10 | (attested ? 0x40 : 0);
}

function counterBytes(counter: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(counter);
  return bytes;
}

interface RegistrationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

/** Makes a passkey for registration options (navigator.credentials.create), and the response JSON to send. */
export function createPasskey(
  options: RegistrationOptions,
  origin: string,
  { userVerified = true }: { userVerified?: boolean } = {},
): { passkey: SoftwarePasskey; response: Record<string, unknown> } {
  const rpId = options.rp.id ?? new URL(origin).hostname;
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" });
  const coseKey = encodeCBOR(
    new Map<number, CBORType>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, new Uint8Array(Buffer.from(jwk.x!, "base64url"))],
      [-3, new Uint8Array(Buffer.from(jwk.y!, "base64url"))],
    ]),
  );
  const credentialId = randomBytes(32);
  const idLength = Buffer.alloc(2);
  idLength.writeUInt16BE(credentialId.length);
  const authData = Buffer.concat([
    sha256(rpId),
    Buffer.from([flags({ attested: true, userVerified })]),
    counterBytes(0),
    Buffer.alloc(16), // AAGUID: none (as privacy-preserving platforms report)
    idLength,
    credentialId,
    Buffer.from(coseKey),
  ]);
  const attestationObject = encodeCBOR(
    new Map<string, CBORType>([
      ["fmt", "none"],
      ["attStmt", new Map<string, CBORType>()],
      ["authData", new Uint8Array(authData)],
    ]),
  );
  const clientDataJSON = JSON.stringify({ type: "webauthn.create", challenge: options.challenge, origin });
  return {
    passkey: { credentialId, privateKey, userHandle: options.user.id, rpId, counter: 0, userVerified },
    response: {
      id: b64url(credentialId),
      rawId: b64url(credentialId),
      type: "public-key",
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(Buffer.from(clientDataJSON)),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
    },
  };
}

/** Signs authentication options' challenge with the passkey (navigator.credentials.get): the response JSON. */
export function assertPasskey(
  passkey: SoftwarePasskey,
  options: { challenge: string },
  origin: string,
): Record<string, unknown> {
  passkey.counter += 1;
  const authData = Buffer.concat([
    sha256(passkey.rpId),
    Buffer.from([flags({ attested: false, userVerified: passkey.userVerified })]),
    counterBytes(passkey.counter),
  ]);
  const clientDataJSON = Buffer.from(
    JSON.stringify({ type: "webauthn.get", challenge: options.challenge, origin }),
  );
  const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), passkey.privateKey);
  return {
    id: b64url(passkey.credentialId),
    rawId: b64url(passkey.credentialId),
    type: "public-key",
    authenticatorAttachment: "platform",
    clientExtensionResults: {},
    response: {
      clientDataJSON: b64url(clientDataJSON),
      authenticatorData: b64url(authData),
      signature: b64url(signature),
      userHandle: passkey.userHandle,
    },
  };
}
