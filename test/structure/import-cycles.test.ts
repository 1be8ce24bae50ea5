import { describe, expect, it } from 'vitest';
import { folderGraph, importCycles, importGraph, sourceFiles } from './import-graph.ts';

const FOLDERS = ['commands', 'src', 'packages', 'demo', 'bench', 'fixtures', 'scripts', 'test'];

describe('import cycles', () => {
  it('finds none in the repository (type-only imports included)', () => {
    const cycles = importCycles(importGraph(sourceFiles(FOLDERS)));
    expect(cycles.map((files) => files.join(' <-> '))).toEqual([]);
  });

  // A knot of folders (each imports the others through some file) reads as one room: none may be understood, moved or
  // split alone, even when no file cycle ties them.
  it("finds no cycle of folders in src/core, each of core's folders and files a room", () => {
    const rooms = folderGraph(importGraph(sourceFiles(['src/core'])), 'src/core/');
    expect(rooms.size).toBeGreaterThan(15);
    expect(importCycles(rooms).map((folders) => folders.join(' <-> '))).toEqual([]);
  });

  // Within core/audio, threads and workers lie below the codecs and the jobs above them; within auto-read, the
  // dictionary lies below the reading. Its folders only: a file directly in the folder is a room the others share.
  it.each(['src/core/audio/', 'src/features/autoread/'])('finds no cycle of the folders in %s', (prefix) => {
    const rooms = folderGraph(importGraph(sourceFiles([prefix])), prefix);
    const folders = new Map([...rooms].filter(([room]) => !room.endsWith('.ts')));
    expect(folders.size).toBeGreaterThan(3);
    expect(importCycles(folders).map((cycle) => cycle.join(' <-> '))).toEqual([]);
  });

  it('draws a folder graph from a file graph: one arrow per pair, none within a folder', () => {
    const files = new Map([
      ['src/core/a/one.ts', ['src/core/a/two.ts', 'src/core/b/three.ts', 'src/core/top.ts']],
      ['src/core/a/two.ts', ['src/core/b/three.ts']],
      ['src/core/b/three.ts', ['src/core/b/deep/four.ts']],
      ['src/core/b/deep/four.ts', []],
      ['src/core/top.ts', ['src/core/a/one.ts']],
    ]);
    const rooms = folderGraph(files, 'src/core/');
    expect(Object.fromEntries(rooms)).toEqual({ a: ['b', 'top.ts'], b: [], 'top.ts': ['a'] });
    expect(importCycles(rooms)).toEqual([['a', 'top.ts']]);
  });

  it('names the files of a cycle it is shown', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
      ['e.ts', ['e.ts']],
    ]);
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
  });
});
