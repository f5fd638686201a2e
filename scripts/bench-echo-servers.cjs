#!/usr/bin/env node
// usage: node scripts/bench-echo-servers.cjs COUNT DELAY_MS READY_FILE
// For `npm run bench`: COUNT loopback servers that answer an HTTP GET like the demo
// app (registry.k8s.io/echoserver:1.10: two Pods on two nodes, answering in turn, the client address
// as seen) DELAY_MS after the request arrived, standing in for exposures across a
// network. Plain sockets with a canned reply, so the servers cost the machine as
// little CPU as possible (the remote ends cost the prober's machine none).
// Writes their URLs as a JSON list to READY_FILE once all listen; runs until killed.
// Lines on stdin change servers while they run (`npm run bench`'s watch case), I being a
// server's index in the list: `fail I` (it answers 503), `ok I` (it answers again), `snat I`
// (the Pod sees its node's address, as after an externalTrafficPolicy flip to Cluster),
// `client I` (the Pod sees the client's again), `pods I N` (N Pods answer, on N nodes).
'use strict';

const net = require('node:net');
const fs = require('node:fs');

const [count, delayMs, readyFile] = [Number(process.argv[2]), Number(process.argv[3]), process.argv[4]];
if (!Number.isInteger(count) || count < 1 || !Number.isFinite(delayMs) || delayMs < 0 || !readyFile) {
  process.stderr.write('usage: node scripts/bench-echo-servers.cjs COUNT DELAY_MS READY_FILE\n');
  process.exit(2);
}

const PODS = [
  ['echo-5d9c7b8f6d-x2k4p', 'ip-10-0-1-23.ec2.internal', '10.0.1.57'],
  ['echo-5d9c7b8f6d-q8w7e', 'ip-10-0-33-41.ec2.internal', '10.0.33.90'],
  ['echo-5d9c7b8f6d-m4n5b', 'ip-10-0-2-200.ec2.internal', '10.0.2.17'],
];

/** Per server: failing, SNAT, how many Pods answer, and how many replies it gave (its Pods answer in turn). */
const state = [];

function reply(client, server) {
  const { fail, snat, pods } = state[server];
  if (fail) return 'HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\ncontent-length: 20\r\nconnection: close\r\n\r\nno healthy upstream\n';
  const [pod, node, ip] = PODS[state[server].replies++ % pods];
  if (snat) client = node.replace(/^ip-(\d+)-(\d+)-(\d+)-(\d+).*$/, '$1.$2.$3.$4');
  const body = `\n\nHostname: ${pod}\n\nPod Information:\n\tnode name:\t${node}\n\tpod name:\t${pod}\n\tpod namespace:\thoplab\n\tpod IP:\t${ip}\n\nRequest Information:\n\tclient_address=${client}\n\tmethod=GET\n\nRequest Headers:\n\taccept=text/plain\n\nRequest Body:\n\t-no body in request-\n\n`;
  return `HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

async function main() {
  const urls = [];
  for (let i = 0; i < count; i += 1) {
    state.push({ fail: false, snat: false, pods: 2, replies: 0 });
    const server = net.createServer((socket) => {
      let head = '';
      socket.on('error', () => undefined);
      socket.on('data', (chunk) => {
        if (head.includes('\r\n\r\n')) return;
        head += chunk.toString('latin1');
        if (!head.includes('\r\n\r\n')) return;
        const text = reply((socket.remoteAddress || '').replace(/^::ffff:/, ''), i);
        setTimeout(() => socket.end(text), delayMs);
      });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', 1024, resolve));
    urls.push(`http://127.0.0.1:${server.address().port}/`);
  }
  fs.writeFileSync(`${readyFile}.tmp`, JSON.stringify(urls));
  fs.renameSync(`${readyFile}.tmp`, readyFile);
  let input = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    input += chunk;
    for (let end = input.indexOf('\n'); end >= 0; end = input.indexOf('\n')) {
      const [what, index, value] = input.slice(0, end).trim().split(/\s+/);
      input = input.slice(end + 1);
      const server = state[Number(index)];
      if (!server) continue;
      if (what === 'fail' || what === 'ok') server.fail = what === 'fail';
      else if (what === 'snat' || what === 'client') server.snat = what === 'snat';
      else if (what === 'pods') server.pods = Math.max(1, Math.min(PODS.length, Number(value)));
    }
  });
  // Killed or not, the servers end with the bench (stdin closes).
  process.stdin.on('end', () => process.exit(0));
}

main();
