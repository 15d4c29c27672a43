const r = new Response(new Uint8Array(10));
try { const rd = r.body!.getReader({ mode: "byob" }); console.log("byob on Response(bytes) ok", rd.constructor.name); } catch (e) { console.log("no byob", String(e)); }
const res = await fetch("data:text/plain,hello");
try { const rd = res.body!.getReader({ mode: "byob" }); console.log("byob on fetch ok"); const v = await rd.read(new Uint8Array(16)); console.log(v.done, v.value?.byteLength); } catch (e) { console.log("no byob on fetch", String(e)); }
