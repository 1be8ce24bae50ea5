// A relay to a port on 127.0.0.1, in a process of its own, whose accepting a test stops (SIGSTOP, then its accept
// queue filled, so that a new connection to it waits in its connect, as a connect or TLS handshake to a far service
// does) and lets go on: the instant a request is on its way to a connection not yet opened.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { createInterface } from 'node:readline';

export interface HeldRelay {
  readonly port: number;
  /** Passes every connection on to `port` from now on. */
  pointAt(port: number): void;
  /** Closes the connections open, then stops accepting, its accept queue filled: a new connection to it waits. */
  hold(): Promise<void>;
  /** Accepts again; resolved once its queue was emptied, so a new connection opens at once. */
  letGo(): Promise<void>;
  close(): void;
}

const RELAY = [
  "const net=require('net');let target;const open=new Set();",
  "const rl=require('readline').createInterface({input:process.stdin});",
  // A ping is answered after the loop's turn that saw it, so after every connection waiting then was accepted; a drop
  // closes the connections open (a client's kept-alive one would pass a held relay by).
  "rl.on('line',(l)=>{if(l==='drop')for(const c of open)c.destroy();if(l==='ping'||l==='drop')setImmediate(()=>process.stdout.write('pong\\n'));else target=Number(l)});",
  "const s=net.createServer((c)=>{const u=net.connect(target,'127.0.0.1');open.add(c);c.on('close',()=>{open.delete(c);u.destroy()});c.pipe(u);u.pipe(c);c.on('error',()=>u.destroy());u.on('error',()=>c.destroy())});",
  "s.listen({port:0,host:'127.0.0.1',backlog:1},()=>{process.stdout.write(String(s.address().port)+'\\n')});",
].join('');

export async function heldRelay(): Promise<HeldRelay> {
  const child = spawn(process.execPath, ['-e', RELAY], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const line = async () => String((await lines.next()).value);
  const port = Number(await line());
  const dummies: net.Socket[] = [];
  return {
    port,
    pointAt: (target) => child.stdin.write(`${target}\n`),
    hold: async () => {
      child.stdin.write('drop\n');
      await line();
      child.kill('SIGSTOP');
      // The kernel completes backlog + 1 handshakes for a listener that does not accept; the SYNs after that are dropped.
      for (let i = 0; i < 6; i += 1) {
        const socket = net.connect({ port, host: '127.0.0.1' });
        socket.on('error', () => undefined);
        dummies.push(socket);
      }
    },
    letGo: async () => {
      for (const socket of dummies.splice(0)) socket.destroy();
      child.kill('SIGCONT');
      child.stdin.write('ping\n');
      await line();
    },
    close: () => {
      for (const socket of dummies.splice(0)) socket.destroy();
      child.kill('SIGCONT');
      child.kill('SIGKILL');
    },
  };
}
