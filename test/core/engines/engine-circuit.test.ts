import { describe, expect, it } from 'vitest';
import { EngineCircuit } from '../../../src/core/engines/engine-circuit.ts';

describe("an engine's circuit", () => {
  it('goes down on a failure, lets one probe through after the backoff, doubles it on a failed probe, up on success', () => {
    let now = 1_000;
    const circuit = new EngineCircuit({ baseMs: 5_000, maxMs: 60_000, now: () => now });
    expect(circuit.admit()).toBe('go');
    circuit.failed();
    expect(circuit.down).toBe(true);
    expect(circuit.retryAt).toBe(6_000);
    expect(circuit.admit()).toBe('down');
    now = 6_000;
    expect(circuit.admit()).toBe('probe');
    // One probe at a time.
    expect(circuit.admit()).toBe('down');
    circuit.failed();
    expect(circuit.retryAt).toBe(16_000);
    now = 16_000;
    expect(circuit.admit()).toBe('probe');
    circuit.succeeded();
    expect(circuit.down).toBe(false);
    expect(circuit.admit()).toBe('go');
    circuit.failed();
    expect(circuit.retryAt).toBe(21_000);
  });

  it('caps the backoff, and does not lengthen it for lines that were already under way', () => {
    let now = 0;
    const circuit = new EngineCircuit({ baseMs: 5_000, maxMs: 60_000, now: () => now });
    circuit.failed();
    circuit.failed();
    expect(circuit.retryAt).toBe(5_000);
    for (let i = 0; i < 10; i += 1) {
      now = circuit.retryAt!;
      expect(circuit.admit()).toBe('probe');
      circuit.failed();
    }
    expect(circuit.retryAt! - now).toBe(60_000);
  });

  it('lets the next line probe when a probe was aborted by its caller', () => {
    let now = 0;
    const circuit = new EngineCircuit({ baseMs: 10, now: () => now });
    circuit.failed();
    now = 10;
    expect(circuit.admit()).toBe('probe');
    circuit.released();
    expect(circuit.admit()).toBe('probe');
  });
});
