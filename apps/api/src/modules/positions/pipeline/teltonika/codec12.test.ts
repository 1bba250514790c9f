import { describe, expect, it } from 'vitest';
import { crc16Ibm, TeltonikaFrameError } from './codec.ts';
import { COMMAND_TYPE, decodeCodec12, encodeCommand, encodeResponse, isCodec12, RESPONSE_TYPE } from './codec12.ts';

// The frames of Teltonika's codec 12 documentation, byte for byte.
const GETINFO_COMMAND = '000000000000000F0C010500000007676574696E666F0100004312';
const GETINFO_RESPONSE =
  '00000000000000900C010600000088494E493A323031392F372F323220373A3232205254433A323031392F372F323220373A3533205253543A32204552523A312053523A302042523A302043463A302046473A3020464C3A302054553A302F302055543A3020534D533A30204E4F4750533A303A3330204750533A31205341543A302052533A332052463A36352053463A31204D443A30010000C78F';

describe('codec 12', () => {
  it('encodes the getinfo command as the documented frame', () => {
    expect(encodeCommand('getinfo').toString('hex').toUpperCase()).toBe(GETINFO_COMMAND);
  });

  it("decodes the documented getinfo response into the device's text", () => {
    const frame = Buffer.from(GETINFO_RESPONSE, 'hex');
    expect(isCodec12(frame)).toBe(true);
    const { type, text } = decodeCodec12(frame);
    expect(type).toBe(RESPONSE_TYPE);
    expect(text).toBe(
      'INI:2019/7/22 7:22 RTC:2019/7/22 7:53 RST:2 ERR:1 SR:0 BR:0 CF:0 FG:0 FL:0 TU:0/0 UT:0 SMS:0 NOGPS:0:30 GPS:1 SAT:0 RS:3 RF:65 SF:1 MD:0',
    );
  });

  it('reads back what it writes, command and response', () => {
    expect(decodeCodec12(encodeCommand('setdigout 1'))).toEqual({ type: COMMAND_TYPE, text: 'setdigout 1' });
    expect(decodeCodec12(encodeResponse('DOUT1:1'))).toEqual({ type: RESPONSE_TYPE, text: 'DOUT1:1' });
  });

  it('refuses a frame whose CRC does not match, and one whose text length is wrong', () => {
    const bad = Buffer.from(GETINFO_COMMAND, 'hex');
    bad.writeUInt8(bad.readUInt8(bad.length - 1) ^ 0xff, bad.length - 1);
    expect(() => decodeCodec12(bad)).toThrow(expect.objectContaining({ reason: 'crc' }) as unknown as TeltonikaFrameError);
    const short = Buffer.from(GETINFO_COMMAND, 'hex');
    short.writeUInt32BE(6, 11);
    short.writeUInt32BE(crc16Ibm(short, 8, short.length - 4), short.length - 4);
    expect(() => decodeCodec12(short)).toThrow(TeltonikaFrameError);
  });

  it('does not take a codec 8 frame for codec 12', () => {
    expect(isCodec12(Buffer.from('000000000000000408010001000000000', 'hex'))).toBe(false);
  });
});
