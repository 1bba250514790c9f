import { crc16Ibm, TeltonikaFrameError } from './codec.ts';

// Teltonika's codec 12 (issue 73, decision 0318): a text command from the server to a device over
// its open TCP connection, and the device's text answer, in the same framing as an AVL packet:
//
//   00000000 | data length (4) | 0x0C | quantity (1) | type (1) | text length (4) | text | quantity (1) | CRC (4)
//
// Type 0x05 is a command (server to device), 0x06 a response (device to server). The quantity is 1
// both times; the CRC is codec.ts's CRC-16/IBM over the data field, as for codec 8.

export const CODEC_12 = 0x0c;
export const COMMAND_TYPE = 0x05;
export const RESPONSE_TYPE = 0x06;

/** Whether a whole frame from the splitter is codec 12 (the server hands it here instead of to the AVL decoder). */
export function isCodec12(frame: Buffer): boolean {
  return frame.length > 8 && frame[8] === CODEC_12;
}

function encode(type: number, text: string): Buffer {
  const body = Buffer.from(text, 'latin1');
  const dataLength = 1 + 1 + 1 + 4 + body.length + 1;
  const frame = Buffer.alloc(8 + dataLength + 4);
  frame.writeUInt32BE(0, 0);
  frame.writeUInt32BE(dataLength, 4);
  frame.writeUInt8(CODEC_12, 8);
  frame.writeUInt8(1, 9);
  frame.writeUInt8(type, 10);
  frame.writeUInt32BE(body.length, 11);
  body.copy(frame, 15);
  frame.writeUInt8(1, 15 + body.length);
  frame.writeUInt32BE(crc16Ibm(frame, 8, 8 + dataLength), 8 + dataLength);
  return frame;
}

/** The frame that sends `text` (e.g. `getinfo`) to a device. */
export function encodeCommand(text: string): Buffer {
  return encode(COMMAND_TYPE, text);
}

/** A device's answer frame (the simulated devices of the tests and the demo). */
export function encodeResponse(text: string): Buffer {
  return encode(RESPONSE_TYPE, text);
}

/** Decodes one whole codec 12 frame. Throws TeltonikaFrameError on a bad CRC, codec or layout. */
export function decodeCodec12(frame: Buffer): { type: number; text: string } {
  if (frame.length < 8 + 8 + 4) throw new TeltonikaFrameError('format', `codec 12 frame of ${frame.length} bytes is too short`);
  if (frame.readUInt32BE(0) !== 0) throw new TeltonikaFrameError('format', 'frame does not start with the 4-byte zero preamble');
  const dataLength = frame.readUInt32BE(4);
  const end = 8 + dataLength;
  if (frame.length !== end + 4) throw new TeltonikaFrameError('format', `data length ${dataLength} does not match a frame of ${frame.length} bytes`);
  const crc = frame.readUInt32BE(end);
  const computed = crc16Ibm(frame, 8, end);
  if (crc !== computed) throw new TeltonikaFrameError('crc', `CRC ${crc.toString(16)} does not match the data (${computed.toString(16)})`);
  if (frame[8] !== CODEC_12) throw new TeltonikaFrameError('codec', `codec 0x${frame[8]!.toString(16)} is not codec 12`);
  const type = frame.readUInt8(10);
  const size = frame.readUInt32BE(11);
  if (15 + size + 1 !== end) throw new TeltonikaFrameError('format', `a text of ${size} bytes does not fill a data field of ${dataLength}`);
  if (frame[9] !== 1 || frame[end - 1] !== 1) throw new TeltonikaFrameError('format', 'codec 12 quantities other than 1');
  return { type, text: frame.toString('latin1', 15, 15 + size) };
}
