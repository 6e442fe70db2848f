// Preloaded (`node -r`) by the scripts in scripts/ into servers they do not own (Keyrock, the
// PEP proxy): a server told to listen on a port without a host listens on 127.0.0.1 only.
const net = require('node:net');
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if ((typeof args[0] === 'number' || typeof args[0] === 'string') && typeof args[1] !== 'string') {
    args.splice(1, 0, '127.0.0.1');
  }
  return listen.apply(this, args);
};
