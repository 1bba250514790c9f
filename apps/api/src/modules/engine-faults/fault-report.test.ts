import { describe, expect, it } from 'vitest';
import { normalizeFaultCode } from '@fleet/api-contract';
import { describeFault, FMI_DESCRIPTIONS } from './dtc-descriptions.ts';
import { decodeDtcBytes, dtcValue, faultReport } from './fault-report.ts';

describe('faultReport', () => {
  it('says nothing of a position without fault attributes', () => {
    expect(faultReport({ ignition: true, rpm: 1200 })).toBeNull();
  });

  it('reads a J1939 DTC as DM1 carries it, SPNs above 65535 included, and 127 occurrences as not available', () => {
    // SPN 520192 (0x7F000: the first proprietary SPN) FMI 31, occurrence count 127.
    expect(decodeDtcBytes(0x00, 0xf0, 0xff, 0x7f)).toMatchObject({ code: 'SPN 520192 FMI 31', spn: 520_192, fmi: 31, occurrences: null });
    for (const [spn, fmi, oc] of [
      [110, 16, 3],
      [524_287, 0, 1],
      [3364, 18, 126],
    ] as const) {
      const v = dtcValue(spn, fmi, oc);
      expect(faultReport({ dm1Dtc: v })?.channels).toEqual([
        { channel: 'dm1Dtc', kind: 'EVENT', faults: [expect.objectContaining({ spn, fmi, occurrences: oc })] },
      ]);
    }
    // All zeros is "no active fault".
    expect(faultReport({ dm1Dtc: 0 })).toEqual({ channels: [], malformed: 0 });
  });

  it('reads a whole DM1 message: the lamps and every fault, as hex or as JSON', () => {
    // MIL on (01), red stop off, amber warning on (01), protect off; SPN 100 FMI 1 OC 2, SPN 111 FMI 18 OC 1.
    const hex = `44ff${dtcValue(100, 1, 2).toString(16).padStart(8, '0')}${dtcValue(111, 18, 1).toString(16).padStart(8, '0')}`;
    const r = faultReport({ dm1: hex })!;
    expect(r.malformed).toBe(0);
    expect(r.channels[0]).toMatchObject({ channel: 'dm1', kind: 'LIST' });
    expect(r.channels[0]!.faults.map((f) => [f.code, f.occurrences, f.lamps])).toEqual([
      ['SPN 100 FMI 1', 2, { mil: true, redStop: false, amberWarning: true, protect: false }],
      ['SPN 111 FMI 18', 1, { mil: true, redStop: false, amberWarning: true, protect: false }],
    ]);
    expect(faultReport({ dm1: { lamps: { redStop: true }, faults: [{ spn: 100, fmi: 1 }] } })!.channels[0]!.faults).toEqual([
      {
        source: 'J1939',
        code: 'SPN 100 FMI 1',
        spn: 100,
        fmi: 1,
        occurrences: null,
        lamps: { mil: false, redStop: true, amberWarning: false, protect: false },
      },
    ]);
    // A message with no fault (SPN 0) is an empty list: it clears.
    expect(faultReport({ dm1: '000000000000' })!.channels[0]!.faults).toEqual([]);
  });

  it('counts what is malformed and reads the rest', () => {
    expect(faultReport({ dm1: '44ff0102', dtcs: 'P0301' })).toEqual({ channels: [expect.objectContaining({ channel: 'dtcs' })], malformed: 1 });
    expect(faultReport({ dm1: { faults: [{ spn: 600_000, fmi: 1 }] } })!.malformed).toBe(1);
    expect(faultReport({ dtcs: ['P0301', 42] })!.malformed).toBe(1);
    expect(faultReport({ dm1Dtc: -1 })!.malformed).toBe(1);
    expect(faultReport({ dtcCount: 'two' })!.malformed).toBe(1);
    // A count of codes in `dtcs` (some Traccar decoders): 0 clears, any other says nothing.
    expect(faultReport({ dtcs: 0 })!.channels).toEqual([{ channel: 'dtcs', kind: 'LIST', faults: [] }]);
    expect(faultReport({ dtcs: 3 })).toEqual({ channels: [], malformed: 0 });
  });
});

describe('codes and descriptions', () => {
  it('writes a code one way whatever the spelling', () => {
    expect(['p0301', 'P0301 '].map((c) => normalizeFaultCode(c))).toEqual(['P0301', 'P0301']);
    expect(['110/0', '110-0', '110:0', 'SPN 110 FMI 0', 'spn110fmi0'].map((c) => normalizeFaultCode(c))).toEqual(Array(5).fill('SPN 110 FMI 0'));
    expect(normalizeFaultCode('110')).toBeNull();
    expect(normalizeFaultCode('110', true)).toBe('SPN 110');
    expect(['P9301', '524288/1', '110/32', 'coolant', ''].map((c) => normalizeFaultCode(c, true))).toEqual([null, null, null, null, null]);
  });

  it('describes all 32 FMIs, known SPNs by name, generic OBD-II codes, and nothing it does not know', () => {
    expect(FMI_DESCRIPTIONS).toHaveLength(32);
    expect(describeFault({ code: 'SPN 100 FMI 1', spn: 100, fmi: 1 })).toBe('Engine oil pressure: data valid but below normal operational range (most severe)');
    expect(describeFault({ code: 'SPN 520192 FMI 4', spn: 520_192, fmi: 4 })).toBe('Voltage below normal, or shorted to low source');
    expect(describeFault({ code: 'P0420', spn: null, fmi: null })).toBe('Catalyst system efficiency below threshold (bank 1)');
    expect(describeFault({ code: 'P1234', spn: null, fmi: null })).toBeUndefined();
  });
});
