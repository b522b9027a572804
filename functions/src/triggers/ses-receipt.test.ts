import { describe, expect, it } from 'vitest';
import type { InboundMailMessage } from '@portal/shared';
import { receive, type SesReceiptEvent } from './ses-receipt.js';

const event = (from: string, status: { spf: string; dkim: string; dmarc: string }): SesReceiptEvent => ({
  Records: [
    {
      ses: {
        mail: {
          messageId: 'o3vrnil0e2ic28trm7dfhrc2v0clambda4nbp0g1',
          source: 'rebotes@proveedor.pe',
          commonHeaders: { from: [from] },
          headers: [{ name: 'DKIM-Signature', value: 'v=1; a=rsa-sha256; d=proveedor.pe; s=sel; b=abc' }],
        },
        receipt: {
          recipients: ['facturas+20100070970@recepcion.grupo.pe'],
          spfVerdict: { status: status.spf },
          dkimVerdict: { status: status.dkim },
          dmarcVerdict: { status: status.dmarc },
        },
      },
    },
  ],
});

describe("SES's receipt function", () => {
  /** What the receipt function queues for this SES event (its bucket: inbound-bucket). */
  async function queued(sesEvent: Parameters<typeof receive>[0]): Promise<InboundMailMessage[]> {
    const sent: InboundMailMessage[] = [];
    await receive(sesEvent, async (message) => void sent.push(message as InboundMailMessage), 'inbound-bucket');
    return sent;
  }

  it('queues where SES wrote the message, its recipients, its envelope sender and the verdicts for its From domain', async () => {
    const sent = await queued(event('Ana <ana@proveedor.pe>', { spf: 'FAIL', dkim: 'PASS', dmarc: 'GRAY' }));
    expect(sent).toEqual([
      {
        messageId: 'o3vrnil0e2ic28trm7dfhrc2v0clambda4nbp0g1',
        bucket: 'inbound-bucket',
        key: 'inbound-mail/o3vrnil0e2ic28trm7dfhrc2v0clambda4nbp0g1',
        recipients: ['facturas+20100070970@recepcion.grupo.pe'],
        envelopeSender: 'rebotes@proveedor.pe',
        verdicts: { spf: 'FAIL', dkim: 'PASS', dmarc: 'GRAY', authenticatedDomain: 'proveedor.pe' },
      },
    ]);
  });

  it('queues an unauthenticated message too, marked so: the worker drops it and deletes its copy', async () => {
    const sent = await queued(event('ana@otro.pe', { spf: 'FAIL', dkim: 'FAIL', dmarc: 'FAIL' }));
    expect(sent[0]!.verdicts.authenticatedDomain).toBeNull();
  });
});
