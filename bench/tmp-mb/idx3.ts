import { buildEntries, entryOrder, indexPage } from '../../apps/api/src/lib/list-index-page.ts';
const MAKES = [['Freightliner', 'Cascadia'], ['Kenworth', 'T680'], ['Peterbilt', '579'], ['Volvo', 'VNL 860'], ['International', 'LT625'], ['Mack', 'Anthem']];
const rows: any[]=[];for(let i=0;i<10025;i++){const [mk,md]=MAKES[i%6];rows.push({id:crypto.randomUUID(),year:2015+(i%11),text:`b${String(i).padStart(5,'0')} 1xkyd49x0n${String.fromCharCode(97+(i%8))}${String(i).padStart(6,'0')}x p${String(i*7).padStart(6,'0')} ${mk} ${md}`.toLowerCase(),filters:['VEHICLE','ACTIVE'],groups:[]});}
rows.sort((a,b)=>a.id<b.id?-1:1);
const e = buildEntries(rows,['type','status']);
const byUnit = entryOrder(Int32Array.from(rows.map((_,i)=>i).sort((a,b)=>rows[a].text<rows[b].text?-1:1)));
const byYear = entryOrder(Int32Array.from(rows.map((_,i)=>i).sort((a,b)=>rows[b].year-rows[a].year || (rows[a].id<rows[b].id?-1:1))));
const terms=['b0042','b1234','kenworth','volvo','00777','p0049','vnl','b099'];
const qs = terms.flatMap(s=>[[{search:s,filters:{type:'VEHICLE'}},byUnit,0],[{search:s,filters:{type:'VEHICLE'}},byYear,15]]) as any[];
for (let rep=0; rep<5; rep++) { const t0=performance.now(); for(let k=0;k<300;k++) for (const [q,o,off] of qs) indexPage(e,q,o,off,15); if(rep>2) console.log('avg per query ms', ((performance.now()-t0)/300/qs.length).toFixed(4)); }
for (const [q,o,off] of qs) { const t0=performance.now(); let r:any; for(let k=0;k<500;k++) r=indexPage(e,q,o,off,15); console.log(q.search.padEnd(9), off, ((performance.now()-t0)/500).toFixed(4), r.total); }
