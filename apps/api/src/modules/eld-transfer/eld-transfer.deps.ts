import type { Config, EldIdentity } from '../../config.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { EldTransferDeps } from './eld-transfer.service.ts';
import { eldWebService } from './eld-web-service.ts';
import { buildEldSmimeMail, eldMailSubject } from './smime.ts';

/** What the transfer needs from the app: its configuration, the ELD's identity, the mail and the two clients. */
export function eldTransferDeps(config: Config, eld: EldIdentity, mailer: Mailer): EldTransferDeps {
  return {
    config: config.eldTransfer,
    eld,
    mailer,
    webService: eldWebService,
    smime: { build: buildEldSmimeMail, subject: eldMailSubject },
  };
}
