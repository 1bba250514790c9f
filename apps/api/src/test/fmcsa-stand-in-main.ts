import path from 'node:path';
import { makeTestCertificates } from './fmcsa-certs.ts';
import { startFmcsaStandIn, type PingMode } from './fmcsa-stand-in.ts';

// The FMCSA stand-in as a process, for browser tests and trying the roadside flow by hand (decision 0185):
//
//   npm run fmcsa:stand-in -- [port] [cert dir]          (default 8443, ./data/fmcsa-stand-in)
//   (node --import tsx apps/api/src/test/fmcsa-stand-in-main.ts [port] [cert dir])
//
// It makes (or reuses) the test certificates in the directory and prints the environment the API
// needs to send to it. FMCSA_STAND_IN_PING=<mode> makes its Pings answer otherwise (UnexpectedError,
// fault, http503, hangup), for the self-check. Stop it with Ctrl-C or SIGTERM.

const port = Number(process.argv[2] ?? 8443);
const dir = path.resolve(process.argv[3] ?? 'data/fmcsa-stand-in');
const certs = makeTestCertificates(dir);
const standIn = await startFmcsaStandIn({ certs, port, host: process.env.FMCSA_STAND_IN_HOST ?? '127.0.0.1' });
if (process.env.FMCSA_STAND_IN_PING) standIn.pingMode = process.env.FMCSA_STAND_IN_PING as PingMode;
console.log(`FMCSA stand-in listening on ${standIn.url}`);
console.log('Start the API with:');
console.log(`  ELD_TRANSFER_URL=${standIn.url}`);
console.log(`  ELD_TRANSFER_CA=${certs.ca}`);
console.log(`  ELD_CLIENT_CERT=${certs.clientCert}`);
console.log(`  ELD_CLIENT_KEY=${certs.clientKey}`);
console.log(`  (or ELD_CLIENT_PFX=${certs.clientPfx} ELD_CLIENT_PFX_PASSWORD=${certs.pfxPassword})`);
let last = 0;
const report = setInterval(() => {
  for (const s of standIn.submissions.slice(last))
    console.log(`Submit ${s.submissionId}: ${s.status} (${s.fileName}, comment ${JSON.stringify(s.comment)}, test ${s.test}, ${s.messages.length} messages)`);
  last = standIn.submissions.length;
}, 500);
const stop = async () => {
  clearInterval(report);
  await standIn.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
