// The order of the DAVE handshake as a client sees it on the wire, from a bare voice-gateway client (ws), including
// the bad order a client must survive (proposals before CLIENTS_CONNECT).
import { describe, expect, it } from 'vitest';
import type { Client } from 'discord.js';
import { WebSocket } from 'ws';
import { AES_GCM_MODE } from '@saybot/local-discord';
import { APP_ID, guildSpec, useLoggedInClient } from './helpers.ts';

const g = guildSpec(1);
const lounge = g.voiceChannels[0]!.id;

/** Joins over the main gateway, then speaks the voice gateway by hand and lists what arrives until op 27 and op 11 did. */
async function handshake(client: Client): Promise<string[]> {
  const voiceData = new Promise<{ token: string; endpoint: string; sessionId: string }>((resolve) => {
    let sessionId: string | undefined;
    const onRaw = (packet: { t?: string; d?: Record<string, unknown> }): void => {
      if (packet.t === 'VOICE_STATE_UPDATE' && packet.d?.user_id === APP_ID) sessionId = String(packet.d.session_id);
      if (packet.t === 'VOICE_SERVER_UPDATE' && sessionId) {
        client.off('raw', onRaw);
        resolve({ token: String(packet.d?.token), endpoint: String(packet.d?.endpoint), sessionId });
      }
    };
    client.on('raw', onRaw);
  });
  client.guilds.cache
    .get(g.id)!
    .shard.send({ op: 4, d: { guild_id: g.id, channel_id: lounge, self_mute: false, self_deaf: true } });
  const { token, endpoint, sessionId } = await voiceData;
  const ws = new WebSocket(`wss://${endpoint}?v=8`);
  const seen: string[] = [];
  try {
    return await new Promise<string[]>((resolve, reject) => {
      ws.on('error', reject);
      ws.on('open', () =>
        ws.send(
          JSON.stringify({
            op: 0,
            d: { server_id: g.id, user_id: APP_ID, session_id: sessionId, token, max_dave_protocol_version: 1 },
          }),
        ),
      );
      ws.on('message', (data: Buffer, isBinary: boolean) => {
        if (isBinary) seen.push(`bin ${data.readUInt8(2)}`);
        else {
          const packet = JSON.parse(data.toString('utf8')) as { op: number };
          seen.push(`json ${packet.op}`);
          if (packet.op === 2) {
            ws.send(
              JSON.stringify({
                op: 1,
                d: { protocol: 'udp', data: { address: '127.0.0.1', port: 9, mode: AES_GCM_MODE } },
              }),
            );
          }
        }
        if (seen.includes('bin 27') && seen.includes('json 11')) resolve(seen);
      });
    });
  } finally {
    ws.close();
  }
}

describe('FakeDiscord DAVE handshake order', () => {
  const rig = useLoggedInClient({ guilds: [g], dave: 'required' });

  it('session description, external sender (25), clients connect (11), then the proposals (27)', async () => {
    const seen = await handshake(rig.client);
    expect(seen.filter((s) => s !== 'json 8' && s !== 'json 6')).toEqual([
      'json 2',
      'json 4',
      'bin 25',
      'json 11',
      'bin 27',
    ]);
  });

  it('setDaveProposalsBeforeClientsConnect: op 27 arrives before op 11', async () => {
    rig.fake.setDaveProposalsBeforeClientsConnect(g.id);
    const seen = await handshake(rig.client);
    expect(seen.filter((s) => s !== 'json 8' && s !== 'json 6')).toEqual([
      'json 2',
      'json 4',
      'bin 25',
      'bin 27',
      'json 11',
    ]);
    rig.fake.setDaveProposalsBeforeClientsConnect(g.id, false);
  });
});
