// Writes .br and .gz beside every compressible file of a build, so the server sends them as-is.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const root = path.resolve(process.argv[2] ?? 'apps/web/dist');
const compressible = /\.(js|mjs|css|html|svg|json|txt|map|wasm)$/;
let files = 0;
let raw = 0;
let br = 0;

function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(file);
    else if (compressible.test(entry.name)) {
      const data = fs.readFileSync(file);
      if (data.length < 1024) continue;
      const b = zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } });
      fs.writeFileSync(`${file}.br`, b);
      fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
      files++;
      raw += data.length;
      br += b.length;
    }
  }
}

if (!fs.existsSync(root)) {
  console.error(`precompress: ${root} does not exist`);
  process.exit(1);
}
walk(root);
console.log(`precompress: ${files} files, ${(raw / 1024).toFixed(0)} KiB -> ${(br / 1024).toFixed(0)} KiB brotli`);
