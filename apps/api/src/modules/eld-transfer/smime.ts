import { randomBytes, randomUUID } from 'node:crypto';
// Types only (erased): the modules themselves are imported inside buildEldSmimeMail.
import type * as Forge from 'node-forge';
import type MimeNode from 'nodemailer/lib/mime-node';

// The e-mail that carries an ELD output file to FMCSA (49 CFR 395 Appendix A 4.10.1.2; issue 45): one
// output file attached, signed with the provider's registered key (CMS SignedData, SHA-256) and then
// encrypted to FMCSA's public ELD certificate (CMS EnvelopedData, AES-256-CBC), as S/MIME (RFC 8551):
//
//   message: application/pkcs7-mime; smime-type=enveloped-data; name=smime.p7m   (From, To, Subject, ...)
//     └ encrypted: multipart/signed; protocol="application/pkcs7-signature"; micalg=sha-256
//         ├ multipart/mixed
//         │   ├ text/plain                 (opts.text: the output file comment, or a line naming the file)
//         │   └ application/octet-stream   (the output file as `fileName`, base64)
//         └ application/pkcs7-signature; name=smime.p7s   (detached SignedData over the part above)
//
// Signed, then encrypted: FMCSA's handout says the e-mail "will be decrypted", then the "signature
// will be validated" against the registration database, which is this order (and what mail clients
// do when asked to sign and encrypt). The signature is detached (multipart/signed) rather than an
// opaque application/pkcs7-mime signed-data: RFC 8551 3.5 prefers multipart/signed for sending and
// requires receivers to handle both; Outlook, Thunderbird and OpenSSL (`openssl cms -verify`) read it;
// and the usual objection to it, that a relay may re-encode the clear-signed part and break the
// signature, does not apply inside the encryption, where no relay can touch the bytes.
//
// The file goes as application/octet-stream in base64: its lines end with a bare CR, which is not a
// line break of canonical text/* (RFC 2046 4.1.1), so a text part could be "repaired" on the way; an
// octet stream in base64 arrives byte for byte.
//
// node-forge builds the CMS structures (RSA key transport, PKCS #1 v1.5, to the recipient certificate;
// RSA signature) and nodemailer's MimeNode (the node tree its MailComposer builds messages with) the
// MIME entities. Both are imported with the first message, not at start (decision 0161): forge is
// about 1 MB of module source an idle server would keep for an e-mail it may never send (it stays
// outside the bundle, scripts/build-api.mjs).

export interface EldSmimeMailOptions {
  /** The attachment's name: the output file's name (4.8.2.2) as it is to arrive, extension included. */
  fileName: string;
  /** The output file, lines ending with CR; sent byte for byte (its characters as UTF-8, ASCII in practice). */
  fileText: string;
  subject: string;
  from: string;
  to: string;
  /** FMCSA's public ELD certificate (PEM, RSA): configuration, replaced from time to time. */
  recipientCertPem: string;
  /** The provider's registered certificate (PEM, RSA) and its private key (PEM, PKCS #1 or #8, unencrypted). */
  signerCertPem: string;
  signerKeyPem: string;
  date?: Date;
  /** The text part beside the file (the output file comment); a line naming the file when absent. */
  text?: string;
}

type ForgeApi = typeof Forge;

/** A complete RFC 5322 message (CRLF line ends, 7-bit) ready for SMTP as it is. */
export async function buildEldSmimeMail(opts: EldSmimeMailOptions): Promise<string> {
  const [forgeModule, mimeNodeModule] = await Promise.all([import('node-forge'), import('nodemailer/lib/mime-node')]);
  // node-forge is CommonJS whose exports Node cannot list for ESM: its namespace is `default` at run
  // time, while its types (an ambient module of namespaces) declare the members at the top level.
  const forge = (forgeModule as unknown as { default?: ForgeApi }).default ?? forgeModule;
  const Node = mimeNodeModule.default;
  const oid = (name: string): string => {
    const value = forge.pki.oids[name];
    if (!value) throw new Error(`node-forge knows no OID named ${name}`);
    return value;
  };
  const date = opts.date ?? new Date();

  const signerCert = forge.pki.certificateFromPem(opts.signerCertPem);
  const signerKey = forge.pki.privateKeyFromPem(opts.signerKeyPem);
  const signerPublic = signerCert.publicKey as Partial<Forge.pki.rsa.PublicKey>;
  if (!signerPublic.n || !signerPublic.e || signerPublic.n.compareTo(signerKey.n) !== 0 || signerPublic.e.compareTo(signerKey.e) !== 0) {
    throw new Error('The ELD signing key does not belong to the signing certificate');
  }
  const recipientCert = forge.pki.certificateFromPem(opts.recipientCertPem);

  // 1. The entity to protect: the text and the file.
  const mixed = detachedNode(Node, 'multipart/mixed');
  mixed.createChild('text/plain').setContent(opts.text ?? `ELD output file ${opts.fileName}\r\n`);
  mixed
    .createChild('application/octet-stream', { filename: opts.fileName })
    .setHeader('Content-Transfer-Encoding', 'base64')
    .setContent(Buffer.from(opts.fileText, 'utf8'));
  const mixedBytes = await mixed.build();

  // 2. Signed: the exact bytes of the entity above, which go into multipart/signed unchanged.
  const p7s = forge.pkcs7.createSignedData();
  p7s.content = forge.util.createBuffer(mixedBytes.toString('binary'));
  p7s.addCertificate(signerCert);
  p7s.addSigner({
    key: signerKey,
    certificate: signerCert,
    digestAlgorithm: oid('sha256'),
    authenticatedAttributes: [
      { type: oid('contentType'), value: oid('data') },
      { type: oid('messageDigest') }, // forge computes it
      { type: oid('signingTime'), value: date.toISOString() },
    ],
  });
  p7s.sign({ detached: true });
  const signed = detachedNode(Node, 'multipart/signed; protocol="application/pkcs7-signature"; micalg=sha-256');
  signed.createChild(false).setRaw(mixedBytes);
  signed.createChild('application/pkcs7-signature', { filename: 'smime.p7s' }).setContent(derOf(forge, p7s.toAsn1()));
  const signedBytes = await signed.build();

  // 3. Encrypted to FMCSA's certificate with AES-256-CBC (a key from Node's CSPRNG).
  const p7m = forge.pkcs7.createEnvelopedData();
  p7m.addRecipient(recipientCert);
  p7m.content = forge.util.createBuffer(signedBytes.toString('binary'));
  p7m.encrypt(forge.util.createBuffer(randomBytes(32).toString('binary')), oid('aes256-CBC'));

  // 4. The message.
  const message = new Node('application/pkcs7-mime; smime-type=enveloped-data', { filename: 'smime.p7m' });
  message.setHeader({
    From: opts.from,
    To: opts.to,
    Subject: opts.subject,
    Date: date,
    'Message-ID': `<${randomUUID()}@${domainOf(opts.from)}>`,
    'MIME-Version': '1.0',
  });
  message.setContent(derOf(forge, p7m.toAsn1()));
  return (await message.build()).toString('latin1');
}

/**
 * A MIME entity without the headers of a message: MimeNode adds Date, Message-ID and MIME-Version to
 * the root of its tree, so the entity is built as the child of a root that is never built itself.
 */
function detachedNode(Node: typeof MimeNode, contentType: string): MimeNode {
  return new Node('multipart/mixed').createChild(contentType);
}

function derOf(forge: ForgeApi, asn1: Forge.asn1.Asn1): Buffer {
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
}

function domainOf(address: string): string {
  const at = address.match(/@([A-Za-z0-9.-]+)/);
  return at?.[1] ?? 'localhost';
}

/**
 * The subject of an ELD e-mail to FMCSA. What we know: FMCSA's handout says a test submission's subject
 * starts with the keyword "TEST" (such e-mails are not passed on to inspectors); a provider reading
 * the ICD (3.2.3.1) writes test subjects as "TEST: ELD records from <ELD registration id>:<ELD
 * identifier>". Assumed, not confirmed by FMCSA: that form (with the ids when the caller has them),
 * followed by the attached file's name and the officer's output file comment, so a person reading
 * FMCSA's inbox or our sent mail sees what was sent for whom; FMCSA reads the file itself from the
 * attachment and the signature.
 */
export function eldMailSubject(opts: { test: boolean; fileName: string; comment: string; registrationId?: string; eldIdentifier?: string }): string {
  // One header line: line breaks and other control characters become spaces.
  const oneLine = (s: string) =>
    [...s]
      .map((c) => (c < ' ' || c === '\u007f' ? ' ' : c))
      .join('')
      .replace(/\s+/g, ' ')
      .trim();
  const ids = opts.registrationId && opts.eldIdentifier ? ` from ${oneLine(opts.registrationId)}:${oneLine(opts.eldIdentifier)}` : '';
  const comment = oneLine(opts.comment);
  return `${opts.test ? 'TEST: ' : ''}ELD records${ids} - ${oneLine(opts.fileName)}${comment ? ` - ${comment}` : ''}`;
}
