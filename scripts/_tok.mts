import { countTokens } from '../packages/core/src/retrieval/tokens';
import { renderContext } from '../packages/core/src/retrieval/render';
const lines = Array.from({ length: 10 }, (_, i) => `The user recently bought a new coffee table number ${i} from West Elm about three weeks ago, and it has made the living room feel modern.`);
const text = 'Known information about the user:\n' + lines.map((l) => '- ' + l).join('\n');
console.log(text.length, countTokens(text));
for (let r = 0; r < 3; r++) {
  let t = performance.now();
  for (let i = 0; i < 2000; i++) countTokens(text + ' ' + (i % 7));
  console.log('whole count ms', ((performance.now() - t) / 2000).toFixed(4));
  const mems = lines.map((c, i) => ({ id: String(i), content: c + ' ' + r, category: 'fact', importance: 0.5 }));
  t = performance.now();
  for (let i = 0; i < 2000; i++) renderContext(mems as any, 'bullets' as any, 200);
  console.log('render (cut) ms', ((performance.now() - t) / 2000).toFixed(4));
  t = performance.now();
  for (let i = 0; i < 2000; i++) renderContext(mems as any, 'bullets' as any, 2000);
  console.log('render (all fit) ms', ((performance.now() - t) / 2000).toFixed(4));
}
