import module from 'node:module';

// The production entry (`npm start`: node dist/server/main.js; `npm run dev` through tsx).
//
// Node's compile cache (module.enableCompileCache, Node 22.1+) keeps V8's compiled code of every
// module loaded after this call on disk (Node's default place, NODE_COMPILE_CACHE to choose
// another), so a start after the first does not compile the server and its packages again: that
// compiling was a good part of the start's module loading (bench/results/start.md).
// It only works for modules loaded after the call, hence nothing else is imported statically
// here. Where the cache cannot be written, Node says so in the returned status and runs as before.
module.enableCompileCache?.();

await import('./boot.js');
