import { readFileSync, writeFileSync } from 'node:fs';
import { renderPictures } from '/work/wt-pictures/runtime/scenarios/offline/picture';
const t0 = performance.now();
const doc = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const p = renderPictures(doc);
console.log('ms', Math.round(performance.now() - t0), 'missing', p.missing, 'bytes', p.png.length);
writeFileSync(process.argv[3], p.png);
